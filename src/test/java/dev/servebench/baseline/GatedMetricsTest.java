package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class GatedMetricsTest {

    @Test
    void throughputsCountsAndTheMedianAndP99OfEachLatencyDecideTheGate() {
        assertThat(Arrays.stream(MetricId.values()).filter(GatedMetrics::gated).map(MetricId::id))
                .containsExactlyInAnyOrder("completed", "failed", "request_throughput", "input_throughput",
                        "output_throughput", "total_throughput", "median_ttft_ms", "p99_ttft_ms", "median_tpot_ms",
                        "p99_tpot_ms", "median_itl_ms", "p99_itl_ms", "median_e2e_latency_ms", "p99_e2e_latency_ms");
        assertThat(Arrays.stream(MetricId.values()).filter(GatedMetrics::gated))
                .noneMatch(m -> m.direction() == Direction.INFORMATIONAL);
    }

    @Test
    void everyOtherMetricSaysWhyItIsOnlyReported() {
        assertThat(GatedMetrics.whyNotGated(MetricId.VLLM_MEDIAN_ITL_MS)).contains("vLLM's definition");
        assertThat(GatedMetrics.whyNotGated(MetricId.P99_DISPATCH_LAG_MS)).contains("client-side diagnostic");
        assertThat(GatedMetrics.whyNotGated(MetricId.PEAK_OUTPUT_THROUGHPUT)).contains("one-second peak");
        assertThat(GatedMetrics.whyNotGated(MetricId.STD_ITL_MS)).contains("spread");
        assertThat(GatedMetrics.whyNotGated(MetricId.BENCHMARK_DURATION)).isEqualTo("informational metric, not judged");
        assertThat(GatedMetrics.whyNotGated(MetricId.P90_ITL_MS)).isEqualTo("reported, not gated");
    }
}
