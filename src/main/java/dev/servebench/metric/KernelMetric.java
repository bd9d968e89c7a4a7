package dev.servebench.metric;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * The kernel suite's figures as a spec names them (its {@code kernels:} lines), one definition each: the
 * benchmark whose time it is computed from, the unit and the formula (docs/kernels.md, "Figures and their
 * formulas"). Each figure is a function of one JMH result's time per operation; {@code
 * kernels.results.KernelFormulas} computes it.
 */
public enum KernelMetric {
    MEMCPY_GBPS("memcpy_gbps", KernelBenchmark.MEMCPY, Unit.GIGABYTES_PER_SECOND,
            "2·bytes / t (bytes read + written, STREAM convention)"),
    MEMCPY_PER_THREAD_GBPS("memcpy_per_thread_gbps", KernelBenchmark.MEMCPY, Unit.GIGABYTES_PER_SECOND,
            "bytes / threads / t (what one thread copies per second: a rank's link analogue)"),
    NVFP4_DEQUANT_GBPS("nvfp4_dequant_gbps", KernelBenchmark.NVFP4_DEQUANT, Unit.GIGABYTES_PER_SECOND,
            "(packed K/2 + scale bytes read + output bytes written) / t"),
    MOE_GFLOPS("moe_gflops", KernelBenchmark.MOE, Unit.GIGAFLOPS_PER_SECOND,
            "6·H·I·T·k / t (useful FLOPs of the routed experts)"),
    ALLREDUCE_BUSBW_GBPS("allreduce_busbw_gbps", KernelBenchmark.ALLREDUCE, Unit.GIGABYTES_PER_SECOND,
            "S/t · 2(N−1)/N (nccl-tests busbw; S bytes per rank, t per collective)"),
    ALLREDUCE_ALGBW_GBPS("allreduce_algbw_gbps", KernelBenchmark.ALLREDUCE, Unit.GIGABYTES_PER_SECOND,
            "S / t (nccl-tests algbw; S bytes per rank, t per collective)"),
    ALLREDUCE_US("allreduce_us", KernelBenchmark.ALLREDUCE, Unit.MICROSECONDS, "t per collective");

    private final String id;
    private final KernelBenchmark benchmark;
    private final Unit unit;
    private final String formula;

    KernelMetric(String id, KernelBenchmark benchmark, Unit unit, String formula) {
        this.id = id;
        this.benchmark = Objects.requireNonNull(benchmark);
        this.unit = unit;
        this.formula = formula;
    }

    public String id() {
        return id;
    }

    public KernelBenchmark benchmark() {
        return benchmark;
    }

    public Unit unit() {
        return unit;
    }

    public String formula() {
        return formula;
    }

    /** Rates are better higher, times lower. */
    public Direction direction() {
        return unit == Unit.MICROSECONDS ? Direction.LOWER_IS_BETTER : Direction.HIGHER_IS_BETTER;
    }

    /**
     * Whether a kernel A/B comparison judges it: one figure per benchmark. A benchmark's other figures are the
     * same time per operation rescaled, so they change by the same ratio; judging them too would only split
     * alpha (Holm) among copies of one test.
     */
    public boolean gated() {
        return switch (this) {
            case MEMCPY_GBPS, NVFP4_DEQUANT_GBPS, MOE_GFLOPS, ALLREDUCE_BUSBW_GBPS -> true;
            case MEMCPY_PER_THREAD_GBPS, ALLREDUCE_ALGBW_GBPS, ALLREDUCE_US -> false;
        };
    }

    /** The figure a kernel A/B comparison judges for {@code benchmark}. */
    public static KernelMetric gatedFigureOf(KernelBenchmark benchmark) {
        return Arrays.stream(values()).filter(m -> m.benchmark == benchmark && m.gated()).findFirst()
                .orElseThrow(() -> new IllegalStateException(benchmark + " has no gated figure"));
    }

    public static Optional<KernelMetric> byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id.equals(id)).findFirst();
    }
}
