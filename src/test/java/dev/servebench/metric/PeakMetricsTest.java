package dev.servebench.metric;

import static dev.servebench.metric.MetricId.PEAK_CONCURRENT_REQUESTS;
import static dev.servebench.metric.MetricId.PEAK_OUTPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.VLLM_PEAK_CONCURRENT_REQUESTS;
import static dev.servebench.metric.MetricId.VLLM_PEAK_OUTPUT_THROUGHPUT;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.FailureKind;
import org.junit.jupiter.api.Test;

class PeakMetricsTest {

    private static ServingSummary summarize(Records.Builder... builders) {
        return SummaryCalculator.compute(Records.inOrder(builders), 10_000_000_000L, MetricOptions.defaults());
    }

    @Test
    void tokenExactlyOnABucketBoundaryBelongsToTheLaterBucket() {
        // t0 = 0: bucket 0 holds 0.5; bucket 1 holds 1.0, 1.25, 1.5
        ServingSummary s = summarize(aRequest().sentAt(0).chunksAt(ms(500), ms(1000), ms(1250), ms(1500)));
        assertThat(s.value(PEAK_OUTPUT_THROUGHPUT)).hasValue(3.0);
    }

    @Test
    void tokenTimesAreSequentialFloatAdditions() {
        // ttft 0.1, then nine ITLs of 0.1: 0.1 + 0.1 + ... reaches 0.9999999999999999, not 1.0, so all
        // ten tokens land in bucket 0 (the exact arrival times would put the last one in bucket 1).
        ServingSummary s = summarize(aRequest().sentAt(0)
                .chunksAt(ms(100), ms(200), ms(300), ms(400), ms(500), ms(600), ms(700), ms(800), ms(900), ms(1000)));
        assertThat(s.value(PEAK_OUTPUT_THROUGHPUT)).hasValue(10.0);
    }

    @Test
    void bucketsAreAnchoredAtTheEarliestSuccessfulStart() {
        ServingSummary s = summarize(
                aRequest().sentAt(0).endAt(ms(100)).failed(FailureKind.HTTP_STATUS),
                // t0 = 0.5: tokens at 1.25 -> bucket 0, 1.75 -> bucket 1 (anchored at 0 both would be bucket 1)
                aRequest().sentAt(ms(500)).chunksAt(ms(1250), ms(1750)));
        assertThat(s.value(PEAK_OUTPUT_THROUGHPUT)).hasValue(1.0);
    }

    @Test
    void multiTokenChunkIsSpreadOverItsGap() {
        // first token at 0.5, then one 4-token chunk at 1.5: ITLs 0.25 x 4 place tokens at 0.75, 1.0, 1.25, 1.5
        ServingSummary s = summarize(aRequest().sentAt(0).chunk(ms(500), 1).chunk(ms(1500), 4));
        assertThat(s.value(PEAK_OUTPUT_THROUGHPUT)).hasValue(3.0);
        // vLLM counts one event per chunk: 0.5 and 1.5
        assertThat(s.value(VLLM_PEAK_OUTPUT_THROUGHPUT)).hasValue(1.0);
    }

    @Test
    void peakCountsEventsAcrossRequests() {
        ServingSummary s = summarize(
                aRequest().sentAt(0).chunksAt(ms(100), ms(200), ms(1100)),
                aRequest().sentAt(ms(300)).chunksAt(ms(400), ms(1200), ms(1300), ms(1900)),
                aRequest().sentAt(ms(2500)).chunksAt(ms(2600)));
        // bucket 0: 0.1 0.2 0.4; bucket 1: 1.1 1.2 1.3 1.9; bucket 2: 2.6
        assertThat(s.value(PEAK_OUTPUT_THROUGHPUT)).hasValue(4.0);
    }

    @Test
    void successWithoutTextCountsOneEventAtItsStart() {
        // SGLang: ttft = 0 and no ITLs gives token_times = [start]
        ServingSummary s = summarize(aRequest().sentAt(ms(200)).endAt(ms(400)),
                aRequest().sentAt(0).chunksAt(ms(700)));
        assertThat(s.value(PEAK_OUTPUT_THROUGHPUT)).hasValue(2.0);
        // vLLM: the eventless request failed
        assertThat(s.value(VLLM_PEAK_OUTPUT_THROUGHPUT)).hasValue(1.0);
    }

    @Test
    void backToBackRequestsInOneSecondCountThreeInABucketButOneOnTheSweepLine() {
        ServingSummary s = summarize(
                aRequest().sentAt(0).chunksAt(ms(250)),
                aRequest().sentAt(ms(250)).chunksAt(ms(500)),
                aRequest().sentAt(ms(500)).chunksAt(ms(750)));
        assertThat(s.value(PEAK_CONCURRENT_REQUESTS)).hasValue(3.0);
        assertThat(s.value(VLLM_PEAK_CONCURRENT_REQUESTS)).hasValue(1.0);
    }

    @Test
    void requestEndingExactlyOnABucketEdgeTouchesThatBucket() {
        ServingSummary s = summarize(
                // [0, 2.0]: buckets 0, 1 and 2 (int(2.0) = 2 is included)
                aRequest().sentAt(0).chunksAt(ms(1000), ms(2000)),
                // [2.0, 2.5]: bucket 2
                aRequest().sentAt(ms(2000)).chunksAt(ms(2500)));
        assertThat(s.value(PEAK_CONCURRENT_REQUESTS)).hasValue(2.0);
        // half-open intervals: the first departs at 2.0 before the second arrives
        assertThat(s.value(VLLM_PEAK_CONCURRENT_REQUESTS)).hasValue(1.0);
    }

    @Test
    void overlappingRequestsCountOnBothDefinitions() {
        ServingSummary s = summarize(
                aRequest().sentAt(0).chunksAt(ms(900), ms(1000)),
                aRequest().sentAt(ms(500)).chunksAt(ms(1500)),
                aRequest().sentAt(ms(700)).chunksAt(ms(800)),
                aRequest().sentAt(ms(3100)).chunksAt(ms(3200)));
        // buckets: r0 0-1, r1 0-1, r2 0, r3 3 -> bucket 0 has 3
        assertThat(s.value(PEAK_CONCURRENT_REQUESTS)).hasValue(3.0);
        // sweep: at 0.7 all of r0 [0,1.0), r1 [0.5,1.5), r2 [0.7,0.8) are open
        assertThat(s.value(VLLM_PEAK_CONCURRENT_REQUESTS)).hasValue(3.0);
    }

    @Test
    void sglangConcurrencyUsesTheDoneLineWhileVllmUsesTheLastChunk() {
        ServingSummary s = summarize(
                // last chunk 0.4, [DONE] at 0.6
                aRequest().sentAt(0).chunksAt(ms(400)).endAt(ms(600)),
                aRequest().sentAt(ms(500)).chunksAt(ms(900)));
        // sweep with e2el: [0, 0.4) and [0.5, 0.9) do not overlap
        assertThat(s.value(VLLM_PEAK_CONCURRENT_REQUESTS)).hasValue(1.0);
        assertThat(s.value(PEAK_CONCURRENT_REQUESTS)).hasValue(2.0);
    }

    @Test
    void aRunSpanningYearsNeedsNoBucketPerSecond() {
        long year = 365L * 24 * 3600 * 1_000_000_000L;
        ServingSummary s = summarize(
                aRequest().sentAt(0).chunksAt(ms(100), 200 * year),
                aRequest().sentAt(ms(50)).chunksAt(ms(200), ms(300)));
        assertThat(s.value(PEAK_OUTPUT_THROUGHPUT)).hasValue(3.0);
        assertThat(s.value(PEAK_CONCURRENT_REQUESTS)).hasValue(2.0);
    }

    @Test
    void noSuccessfulRequestMeansNoPeak() {
        ServingSummary s = summarize(aRequest().sentAt(0).chunksAt(ms(10)).failed(FailureKind.SERVER_ERROR));
        assertThat(s.value(PEAK_OUTPUT_THROUGHPUT)).hasValue(0.0);
        assertThat(s.value(PEAK_CONCURRENT_REQUESTS)).hasValue(0.0);
        assertThat(s.value(VLLM_PEAK_CONCURRENT_REQUESTS)).hasValue(0.0);
    }
}
