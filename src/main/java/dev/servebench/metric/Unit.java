package dev.servebench.metric;

/**
 * Unit of a metric value, with the symbol printed after it. A throughput unit never says which tokens it
 * counts; the metric's id and label do ({@code output_throughput}, "Output token throughput (tok/s):").
 */
public enum Unit {
    TOKENS_PER_SECOND("tok/s"),
    REQUESTS_PER_SECOND("req/s"),
    MILLISECONDS("ms"),
    SECONDS("s"),
    TOKENS("tokens"),
    REQUESTS("requests"),
    /** Kernel figures (GB = 10^9 bytes, GFLOP = 10^9 floating-point operations): {@link KernelMetric}. */
    GIGABYTES_PER_SECOND("GB/s"),
    GIGAFLOPS_PER_SECOND("GFLOP/s"),
    MICROSECONDS("µs");

    private final String symbol;

    Unit(String symbol) {
        this.symbol = symbol;
    }

    public String symbol() {
        return symbol;
    }
}
