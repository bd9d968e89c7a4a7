package dev.servebench.roofline;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Renders decode bounds for a list of batch sizes as a plain-text (Markdown) table: bound and additive
 * output tok/s, minimum ITL, the three times and the limiting term.
 */
public final class RooflineTable {

    private RooflineTable() {
    }

    public static final String HEADER =
            "| batch | bound output tok/s | additive output tok/s | min ITL ms | memory ms | compute ms | comm ms | limit |";

    public static String render(ModelShape model, HardwareShape hardware, List<Integer> batches, int context) {
        Objects.requireNonNull(batches, "batches");
        if (batches.isEmpty()) throw new IllegalArgumentException("no batch sizes to render");
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%s on %s, TP=%d, context %d tokens%n",
                model.name(), hardware.name(), model.tensorParallel(), context));
        out.append(HEADER).append('\n');
        out.append("|------:|------------:|---------------:|-----------:|----------:|-----------:|--------:|-------|\n");
        for (int b : batches) {
            out.append(row(DecodeBound.of(model, hardware, b, context))).append('\n');
        }
        return out.toString();
    }

    public static String row(DecodeBound d) {
        StepCost s = d.step();
        return String.format(Locale.ROOT, "| %d | %s | %s | %s | %s | %s | %s | %s |",
                d.batch(), fmt(d.rooflineOutputThroughput()), fmt(d.additiveOutputThroughput()), fmt(d.minItlMs()),
                fmt(s.memorySeconds() * 1e3), fmt(s.computeSeconds() * 1e3), fmt(s.communicationSeconds() * 1e3),
                d.limitingTerm().name().toLowerCase(Locale.ROOT));
    }

    /** One line per hardware figure with its value and source: what the table's bounds rest on. */
    public static String sources(HardwareShape hardware) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "memory bandwidth %s GB/s per GPU: %s%n",
                fmt(hardware.memoryBandwidth().value() / 1e9), hardware.memoryBandwidth().source()));
        hardware.denseFlops().forEach((p, f) -> out.append(String.format(Locale.ROOT,
                "%s dense %s TFLOP/s per GPU: %s%n", p, fmt(f.value() / 1e12), f.source())));
        out.append(String.format(Locale.ROOT, "allreduce latency %s µs: %s%n",
                fmt(hardware.allreduceLatency().value() * 1e6), hardware.allreduceLatency().source()));
        out.append(String.format(Locale.ROOT, "allreduce busbw %s GB/s: %s%n",
                fmt(hardware.busBandwidth().value() / 1e9), hardware.busBandwidth().source()));
        return out.toString();
    }

    /** Three significant figures, no exponent for the ranges these tables show. */
    public static String fmt(double v) {
        if (v == 0) return "0";
        double a = Math.abs(v);
        if (a >= 100) return String.format(Locale.ROOT, "%.0f", v);
        if (a >= 10) return String.format(Locale.ROOT, "%.1f", v);
        if (a >= 1) return String.format(Locale.ROOT, "%.2f", v);
        if (a >= 0.001) return String.format(Locale.ROOT, "%.3f", v);
        return String.format(Locale.ROOT, "%.2e", v);
    }
}
