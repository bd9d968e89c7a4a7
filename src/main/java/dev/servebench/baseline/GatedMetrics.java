package dev.servebench.baseline;

import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import java.util.Set;

/**
 * Which metrics a gate judges. Every metric is compared and reported, but only these decide the gate:
 * the whole-run throughputs, the median, p90 and p99 of TTFT, TPOT, ITL and end-to-end latency, and the
 * request counts. Why not all of them: the gate corrects for the number of comparisons it judges (Holm),
 * and judging 65 metrics per load point, most of them restatements of the same few quantities, would cost
 * the power to see a real 15 % change on a runner whose repeats vary by 5–10 % (docs/gate.md).
 */
public final class GatedMetrics {

    private static final Set<MetricId> GATED = Set.of(
            MetricId.OUTPUT_THROUGHPUT, MetricId.INPUT_THROUGHPUT, MetricId.TOTAL_THROUGHPUT,
            MetricId.REQUEST_THROUGHPUT, MetricId.COMPLETED, MetricId.FAILED,
            MetricId.MEDIAN_TTFT_MS, MetricId.P99_TTFT_MS,
            MetricId.MEDIAN_TPOT_MS, MetricId.P99_TPOT_MS,
            MetricId.MEDIAN_ITL_MS, MetricId.P99_ITL_MS,
            MetricId.MEDIAN_E2E_LATENCY_MS, MetricId.P99_E2E_LATENCY_MS);

    private GatedMetrics() {
    }

    public static boolean gated(MetricId metric) {
        return GATED.contains(metric);
    }

    /** Why a metric is reported but does not decide the gate. */
    public static String whyNotGated(MetricId metric) {
        if (metric.direction() == Direction.INFORMATIONAL) {
            return "informational metric, not judged";
        }
        String id = metric.id();
        if (id.startsWith("vllm_")) {
            return "reported, not gated: vLLM's definition of a gated metric";
        }
        if (id.contains("queue_time") || id.contains("dispatch_lag")) {
            return "reported, not gated: a client-side diagnostic";
        }
        if (id.startsWith("std_") || id.startsWith("max_") || id.contains("peak_")) {
            return "reported, not gated: a spread, extreme or one-second peak";
        }
        return "reported, not gated";
    }
}
