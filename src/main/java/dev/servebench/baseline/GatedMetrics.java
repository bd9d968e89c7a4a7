package dev.servebench.baseline;

import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.Origin;
import dev.servebench.metric.TokenBasis;

/**
 * Which metrics a gate judges: those {@link MetricId#gated()} declares (the whole-run throughputs, the median
 * and p99 of TTFT, TPOT, ITL and end-to-end latency, and the request counts). Every other metric is compared
 * and reported. Why not all of them: the gate corrects for the number of comparisons it judges (Holm),
 * and judging 65 metrics per load point, most of them restatements of the same few quantities, would cost
 * the power to see a real 15 % change on a runner whose repeats vary by 5–10 % (docs/gate.md).
 */
public final class GatedMetrics {

    private GatedMetrics() {
    }

    public static boolean gated(MetricId metric) {
        return metric.gated();
    }

    /** Why a metric is reported but does not decide the gate. */
    public static String whyNotGated(MetricId metric) {
        if (metric.direction() == Direction.INFORMATIONAL) {
            return "informational metric, not judged";
        }
        if (metric.origin() == Origin.VLLM) {
            return "reported, not gated: vLLM's definition of a gated metric";
        }
        if (metric.origin() == Origin.SERVEBENCH && metric.series().isPresent()) {
            return "reported, not gated: a client-side diagnostic";
        }
        boolean extreme = metric.statistic().map(s -> switch (s.kind()) {
            case STD, MAX -> true;
            case PERCENTILE -> s.rank() > 99;
            case MEAN, MEDIAN -> false;
        }).orElse(false);
        if (extreme || metric.tokenBasis() == TokenBasis.TOKEN_EVENTS && metric.series().isEmpty()) {
            return "reported, not gated: a spread, extreme or one-second peak";
        }
        return "reported, not gated";
    }
}
