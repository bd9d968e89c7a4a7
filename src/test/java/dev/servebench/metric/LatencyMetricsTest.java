package dev.servebench.metric;

import static dev.servebench.metric.MetricId.MAX_ITL_MS;
import static dev.servebench.metric.MetricId.MEAN_E2E_LATENCY_MS;
import static dev.servebench.metric.MetricId.MEAN_ITL_MS;
import static dev.servebench.metric.MetricId.MEAN_TPOT_MS;
import static dev.servebench.metric.MetricId.MEAN_TTFT_MS;
import static dev.servebench.metric.MetricId.MEDIAN_E2E_LATENCY_MS;
import static dev.servebench.metric.MetricId.MEDIAN_ITL_MS;
import static dev.servebench.metric.MetricId.MEDIAN_TPOT_MS;
import static dev.servebench.metric.MetricId.MEDIAN_TTFT_MS;
import static dev.servebench.metric.MetricId.P90_TTFT_MS;
import static dev.servebench.metric.MetricId.P95_TTFT_MS;
import static dev.servebench.metric.MetricId.P99_E2E_LATENCY_MS;
import static dev.servebench.metric.MetricId.P99_ITL_MS;
import static dev.servebench.metric.MetricId.P99_TPOT_MS;
import static dev.servebench.metric.MetricId.P999_TTFT_MS;
import static dev.servebench.metric.MetricId.P99_TTFT_MS;
import static dev.servebench.metric.MetricId.STD_TTFT_MS;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.FailureKind;
import org.junit.jupiter.api.Test;

class LatencyMetricsTest {

    private static ServingSummary summarize(Records.Builder... builders) {
        return SummaryCalculator.compute(Records.inOrder(builders), 10_000_000_000L, MetricOptions.defaults());
    }

    /** TTFTs 0.25, 0.5, 0.75, 1.0 s, given out of order; one failed request with an early chunk. */
    private static ServingSummary fourTtfts() {
        return summarize(
                aRequest().sentAt(0).chunksAt(ms(750)),
                aRequest().sentAt(ms(100)).chunksAt(ms(350)),
                aRequest().sentAt(0).chunksAt(ms(1000)),
                aRequest().sentAt(ms(200)).chunksAt(ms(700)),
                aRequest().sentAt(0).chunksAt(ms(1)).failed(FailureKind.RESET));
    }

    @Test
    void ttftStatisticsInMilliseconds() {
        ServingSummary s = fourTtfts();
        assertThat(s.value(MEAN_TTFT_MS)).hasValue(625.0);
        assertThat(s.value(MEDIAN_TTFT_MS)).hasValue(625.0);
        // deviations +-0.375, +-0.125: squares sum to 0.3125, / 4 = 0.078125
        assertThat(s.value(STD_TTFT_MS)).hasValue(Math.sqrt(0.078125) * 1000);
        // p90: v = 3 * 0.9 = 2.7, lo = 0.75, hi = 1.0, g = 2.7 - 2 >= 0.5 -> hi - d * (1 - g)
        assertThat(s.value(P90_TTFT_MS)).hasValue((1.0 - 0.25 * (1 - (3 * 0.9 - 2))) * 1000);
        assertThat(s.value(P95_TTFT_MS)).hasValue((1.0 - 0.25 * (1 - (3 * 0.95 - 2))) * 1000);
        assertThat(s.value(P99_TTFT_MS)).hasValue((1.0 - 0.25 * (1 - (3 * 0.99 - 2))) * 1000);
    }

    @Test
    void p999TtftIsNumpysLinearPercentileAndNoToolReportsIt() {
        ServingSummary s = fourTtfts();
        // p99.9: v = 3 * 0.999 = 2.997, lo = 0.75, hi = 1.0, g = 0.997 >= 0.5 -> hi - d * (1 - g)
        assertThat(s.value(P999_TTFT_MS)).hasValue((1.0 - 0.25 * (1 - (3 * (99.9 / 100) - 2))) * 1000);
        assertThat(s.value(P999_TTFT_MS).getAsDouble()).isGreaterThan(s.value(P99_TTFT_MS).getAsDouble())
                .isLessThan(1000.0);
        assertThat(P999_TTFT_MS.id()).isEqualTo("p999_ttft_ms");
        assertThat(P999_TTFT_MS.sglangKey()).isEmpty();
        assertThat(P999_TTFT_MS.sglangLabel()).isEmpty();
        assertThat(P999_TTFT_MS.consoleLabel()).isEmpty();
        assertThat(P999_TTFT_MS.gated()).isFalse();
        assertThat(View.values()).noneMatch(P999_TTFT_MS::shownIn);
    }

    @Test
    void statisticIsTakenInSecondsAndScaledAfterwards() {
        ServingSummary s = summarize(aRequest().sentAt(0).chunksAt(ms(100)), aRequest().sentAt(0).chunksAt(ms(200)));
        // mean(0.1, 0.2) = 0.15000000000000002; scaling first would give mean(100, 200) = 150 exactly
        assertThat(s.value(MEAN_TTFT_MS)).hasValue(0.15000000000000002 * 1000).hasValue(150.00000000000003);
    }

    @Test
    void ttftIsZeroForASuccessWithoutText() {
        // SGLang keeps its default ttft = 0 and still lists it
        ServingSummary s = summarize(aRequest().sentAt(0).chunksAt(ms(500)), aRequest().sentAt(0).endAt(ms(300)));
        assertThat(s.value(MEAN_TTFT_MS)).hasValue(250.0);
        assertThat(s.value(MEDIAN_TTFT_MS)).hasValue(250.0);
    }

    @Test
    void tpotOnlyForRequestsWithMoreThanOneOutputToken() {
        ServingSummary s = summarize(
                // ttft 0.25, latency 1.25, 5 tokens: 1.0 / 4 = 0.25
                aRequest().sentAt(0).chunksAt(ms(250), ms(500), ms(750), ms(1000), ms(1250)),
                // one token: no TPOT entry (it would be 0.0 or undefined)
                aRequest().sentAt(0).chunksAt(ms(100)).endAt(ms(900)),
                // ttft 0.5, latency 1.5 ([DONE] after the last chunk), 3 tokens: 1.0 / 2 = 0.5
                aRequest().sentAt(0).chunksAt(ms(500), ms(600), ms(700)).endAt(ms(1500)));
        assertThat(s.value(MEAN_TPOT_MS)).hasValue(375.0);
        assertThat(s.value(MEDIAN_TPOT_MS)).hasValue(375.0);
        // v = 0.99, g = 0.99: 0.5 - 0.25 * (1 - 0.99)
        assertThat(s.value(P99_TPOT_MS)).hasValue((0.5 - 0.25 * (1 - 0.99)) * 1000);
    }

    @Test
    void tpotUsesTheServersOutputLength() {
        // 2 chunks but usage says 5 tokens: (1.0 - 0.2) / 4 = 0.2 (chunk count would give 0.8 / 1)
        ServingSummary s = summarize(aRequest().sentAt(0).chunksAt(ms(200), ms(1000)).usage(10, 5));
        assertThat(s.value(MEAN_TPOT_MS)).hasValue((1.0 - 0.2) / 4 * 1000);
        ServingSummary chunks = SummaryCalculator.compute(
                Records.inOrder(aRequest().sentAt(0).chunksAt(ms(200), ms(1000)).usage(10, 5)), 1_000_000_000L,
                MetricOptions.of(TokenSource.CHUNK_COUNT));
        assertThat(chunks.value(MEAN_TPOT_MS)).hasValue(800.0);
    }

    @Test
    void itlConcatenatesPerRequestGapsAndSplitsMultiTokenChunks() {
        ServingSummary s = summarize(
                // gaps 0.25, 0.5
                aRequest().sentAt(0).chunksAt(ms(100), ms(350), ms(850)),
                // first chunk, then a 4-token chunk 1 s later: four entries of 0.25; an empty event in
                // between is skipped without moving the previous-event time
                aRequest().sentAt(ms(50)).chunk(ms(100), 1).emptyChunkAt(ms(600)).chunk(ms(1100), 4));
        // ITL list: 0.25, 0.5, 0.25, 0.25, 0.25, 0.25 -> mean 1.75 / 6
        assertThat(s.value(MEAN_ITL_MS)).hasValue(1.75 / 6 * 1000);
        assertThat(s.value(MEDIAN_ITL_MS)).hasValue(250.0);
        assertThat(s.value(MAX_ITL_MS)).hasValue(500.0);
        // v = 5 * 0.99 = 4.95, lo = 0.25, hi = 0.5: 0.5 - 0.25 * (1 - 0.95...)
        assertThat(s.value(P99_ITL_MS)).hasValue((0.5 - 0.25 * (1 - (5 * 0.99 - 4))) * 1000);
    }

    @Test
    void e2eLatencyRunsToTheLastSseLine() {
        ServingSummary s = summarize(
                aRequest().sentAt(ms(500)).chunksAt(ms(600), ms(1000)).endAt(ms(1500)),
                aRequest().sentAt(0).chunksAt(ms(250)).endAt(ms(2000)),
                aRequest().sentAt(0).chunksAt(ms(10)).endAt(ms(5000)).failed(FailureKind.TIMEOUT));
        assertThat(s.value(MEAN_E2E_LATENCY_MS)).hasValue(1500.0);
        assertThat(s.value(MEDIAN_E2E_LATENCY_MS)).hasValue(1500.0);
        // v = 0.99 between 1.0 and 2.0: 2.0 - 1.0 * (1 - 0.99)
        assertThat(s.value(P99_E2E_LATENCY_MS)).hasValue((2.0 - (1 - 0.99)) * 1000);
    }
}
