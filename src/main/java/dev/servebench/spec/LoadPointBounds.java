package dev.servebench.spec;

import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.PointBound;
import java.util.Objects;

/**
 * Each load point's speed-of-light bound from the spec's {@code model:} and {@code hardware:}: the decode step
 * at batch = the point's concurrency and context = the mean context while decoding. Absent, with the reason,
 * when the spec lacks the sections, a measured figure is missing, the batch is not fixed (no concurrency cap)
 * or the lengths are not (ShareGPT). Pure.
 */
public final class LoadPointBounds {

    private LoadPointBounds() {
    }

    public static PointBound at(PerformanceSpec spec, LoadPointKey point, MeasuredHardware measured) {
        Objects.requireNonNull(measured, "measured");
        if (spec.deployment().isEmpty()) {
            return new PointBound.Unbounded("spec " + spec.name() + " has no model: and hardware: sections");
        }
        if (point.concurrency() < 1) {
            return new PointBound.Unbounded(point + " has no concurrency cap: the batch a decode step runs is not"
                    + " fixed");
        }
        if (!(spec.workload().dataset() instanceof RandomDatasetSpec random)) {
            return new PointBound.Unbounded("the bound needs the spec's fixed prompt and output lengths (dataset:"
                    + " random); ShareGPT has per-request lengths");
        }
        return spec.deployment().get().bound(measured, point.concurrency(), decodeContext(random));
    }

    /**
     * The mean context over the decode phase: mean input + (mean output − 1) / 2, with random lengths uniform in
     * [len × range_ratio, len]; rounded down. The step time is convex in the context, so the bound at the mean
     * is still an upper bound on the average throughput (docs/roofline.md), and rounding down only raises it.
     */
    public static int decodeContext(RandomDatasetSpec random) {
        double meanInput = random.inputLen() * (1 + random.rangeRatio()) / 2;
        double meanOutput = random.outputLen() * (1 + random.rangeRatio()) / 2;
        return (int) Math.floor(meanInput + Math.max(0, meanOutput - 1) / 2);
    }
}
