package dev.servebench.metric;

import static dev.servebench.metric.MetricId.COMPLETED;
import static dev.servebench.metric.MetricId.FAILED;
import static dev.servebench.metric.MetricId.MEAN_E2E_LATENCY_MS;
import static dev.servebench.metric.MetricId.MEAN_ITL_MS;
import static dev.servebench.metric.MetricId.MEAN_TPOT_MS;
import static dev.servebench.metric.MetricId.MEAN_TTFT_MS;
import static dev.servebench.metric.MetricId.VLLM_COMPLETED;
import static dev.servebench.metric.MetricId.VLLM_MEAN_E2EL_MS;
import static dev.servebench.metric.MetricId.VLLM_MEAN_ITL_MS;
import static dev.servebench.metric.MetricId.VLLM_MEAN_TPOT_MS;
import static dev.servebench.metric.MetricId.VLLM_MEAN_TTFT_MS;
import static dev.servebench.metric.MetricId.VLLM_MEDIAN_TTFT_MS;
import static dev.servebench.metric.MetricId.VLLM_P99_E2EL_MS;
import static dev.servebench.metric.MetricId.VLLM_P99_TTFT_MS;
import static dev.servebench.metric.MetricId.VLLM_STD_TTFT_MS;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.FailureKind;
import org.junit.jupiter.api.Test;

class VllmMetricsTest {

    private static ServingSummary summarize(Records.Builder... builders) {
        return SummaryCalculator.compute(Records.inOrder(builders), 10_000_000_000L, MetricOptions.defaults());
    }

    @Test
    void vllmTtftStartsAtTheFirstChoiceBearingEventEvenWithoutText() {
        ServingSummary s = summarize(
                // chat: role-only chunk at 0.125, first content at 0.375
                aRequest().sentAt(0).emptyChunkAt(ms(125)).chunksAt(ms(375), ms(500)),
                aRequest().sentAt(ms(1000)).chunksAt(ms(1250), ms(1500)));
        assertThat(s.value(VLLM_MEAN_TTFT_MS)).hasValue(187.5);
        assertThat(s.value(MEAN_TTFT_MS)).hasValue(312.5);
        assertThat(s.value(VLLM_MEDIAN_TTFT_MS)).hasValue(187.5);
        // deviations +-0.0625
        assertThat(s.value(VLLM_STD_TTFT_MS)).hasValue(62.5);
        // v = 0.99: 0.25 - 0.125 * (1 - 0.99)
        assertThat(s.value(VLLM_P99_TTFT_MS)).hasValue((0.25 - 0.125 * (1 - 0.99)) * 1000);
    }

    @Test
    void aSuccessWithoutAnyEventIsAVllmFailure() {
        ServingSummary s = summarize(
                aRequest().sentAt(0).chunksAt(ms(500)),
                aRequest().sentAt(0).endAt(ms(250)),
                aRequest().sentAt(0).endAt(ms(100)).failed(FailureKind.INCOMPLETE));
        assertThat(s.value(COMPLETED)).hasValue(2.0);
        assertThat(s.value(VLLM_COMPLETED)).hasValue(1.0);
        assertThat(s.value(FAILED)).hasValue(2.0);
        assertThat(s.failedOutcomes()).isEqualTo(1);
        assertThat(s.successesWithoutEvent()).isEqualTo(1);
        // SGLang lists ttft 0 for the eventless success, vLLM leaves it out
        assertThat(s.value(MEAN_TTFT_MS)).hasValue(250.0);
        assertThat(s.value(VLLM_MEAN_TTFT_MS)).hasValue(500.0);
        assertThat(s.notes()).anyMatch(n -> n.startsWith("1 successful request(s) had no choice-bearing event"));
    }

    @Test
    void vllmLatencyEndsAtTheLastChoiceBearingEvent() {
        ServingSummary s = summarize(
                aRequest().sentAt(0).chunksAt(ms(250), ms(1000)).endAt(ms(1500)),
                aRequest().sentAt(ms(500)).chunksAt(ms(750), ms(2500)).endAt(ms(2500)));
        assertThat(s.value(VLLM_MEAN_E2EL_MS)).hasValue(1500.0);
        assertThat(s.value(MEAN_E2E_LATENCY_MS)).hasValue(1750.0);
        assertThat(s.value(VLLM_P99_E2EL_MS)).hasValue((2.0 - (1 - 0.99)) * 1000);
    }

    @Test
    void vllmItlHasOneEntryPerEventIncludingEmptyOnes() {
        ServingSummary s = summarize(
                // events 0.25 (role), 0.5, 0.75 (2 tokens), 1.5
                aRequest().sentAt(0).emptyChunkAt(ms(250)).chunk(ms(500), 1).chunk(ms(750), 2).chunk(ms(1500), 1));
        // vLLM: 0.25, 0.25, 0.75
        assertThat(s.value(VLLM_MEAN_ITL_MS)).hasValue(1.25 / 3 * 1000);
        // SGLang: 0.125, 0.125, 0.75
        assertThat(s.value(MEAN_ITL_MS)).hasValue(1.0 / 3 * 1000);
    }

    @Test
    void vllmTpotUsesVllmTtftAndLatency() {
        ServingSummary s = summarize(
                aRequest().sentAt(0).emptyChunkAt(ms(250)).chunksAt(ms(500), ms(1000), ms(1250)).endAt(ms(2000)));
        // 3 tokens: vLLM (1.25 - 0.25) / 2, SGLang (2.0 - 0.5) / 2
        assertThat(s.value(VLLM_MEAN_TPOT_MS)).hasValue(500.0);
        assertThat(s.value(MEAN_TPOT_MS)).hasValue(750.0);
    }
}
