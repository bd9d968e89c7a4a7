package dev.servebench.baseline;

import dev.servebench.metric.KernelMetric;
import dev.servebench.spec.KernelPoint;
import java.util.List;
import java.util.Objects;

/**
 * One kernel figure at one kernel point of a kernel A/B comparison: its value on each side in each round,
 * index = round − 1, from that side's fork in that round. {@code NaN} is a fork that measured nothing (it
 * failed); that round then pairs nothing here.
 */
public record KernelPairedPoint(KernelMetric metric, KernelPoint point, List<Double> a, List<Double> b) {

    public KernelPairedPoint {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(point, "point");
        a = List.copyOf(a);
        b = List.copyOf(b);
        if (metric.benchmark() != point.benchmark()) {
            throw new IllegalArgumentException(metric.id() + " is a figure of " + metric.benchmark().className()
                    + ", not of " + point.benchmark().className());
        }
        if (a.size() != b.size()) {
            throw new IllegalArgumentException(subject(metric, point) + ": A has " + a.size() + " rounds, B "
                    + b.size() + "; both sides are measured in every round");
        }
        for (List<Double> side : List.of(a, b)) {
            for (double value : side) {
                if (!Double.isNaN(value) && !(value >= 0 && value < Double.POSITIVE_INFINITY)) {
                    throw new IllegalArgumentException(subject(metric, point) + ": value " + value
                            + "; expected a finite figure >= 0, or NaN for a fork that measured nothing");
                }
            }
        }
    }

    public int rounds() {
        return a.size();
    }

    /** {@code Nvfp4DequantBenchmark nvfp4_dequant_gbps @ backend=native,…}: the case's name in reports. */
    public String subject() {
        return subject(metric, point);
    }

    static String subject(KernelMetric metric, KernelPoint point) {
        return metric.id() + " @ " + point.benchmark().className() + ":" + point;
    }
}
