package dev.servebench.metric;

import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.record.FailureKind;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenTimelineTest {

    @Test
    void countsTokenEventsPerSecondFromTheEarliestSuccessfulStart() {
        long[] buckets = TokenTimeline.tokenEventsPerSecond(Records.inOrder(
                aRequest().sentAt(0).endAt(ms(100)).failed(FailureKind.HTTP_STATUS),
                aRequest().sentAt(ms(500)).chunksAt(ms(600), ms(1400), ms(1600), ms(2700)),
                aRequest().sentAt(ms(700)).chunksAt(ms(1000))));
        // t0 = 0.5 s: 0.6 1.0 1.4 -> bucket 0; 1.6 -> bucket 1; 2.7 -> bucket 2 (the failure does not anchor)
        assertThat(buckets).containsExactly(3, 1, 1, 0);
    }

    @Test
    void largestBucketIsThePeakOutputThroughputOfTheSameRecords() {
        for (long seed = 1; seed <= 20; seed++) {
            RandomWorkload workload = RandomWorkload.generate(seed);
            ServingSummary summary = SummaryCalculator.compute(workload.records(), workload.durationNanos(),
                    workload.options());
            long[] buckets = TokenTimeline.tokenEventsPerSecond(workload.records());
            assertThat((double) Arrays.stream(buckets).max().orElse(0))
                    .as("seed %d", seed).isEqualTo(summary.value(MetricId.PEAK_OUTPUT_THROUGHPUT).orElseThrow());
        }
    }

    @Test
    void noSuccessfulRequestGivesNoBuckets() {
        assertThat(TokenTimeline.tokenEventsPerSecond(List.of())).isEmpty();
        assertThat(TokenTimeline.tokenEventsPerSecond(Records.inOrder(
                aRequest().sentAt(0).endAt(ms(5)).failed(FailureKind.RESET)))).isEmpty();
    }

    @Test
    void aSpanLongerThanAWeekIsRefusedRatherThanAllocated() {
        long eightDays = 8L * 24 * 3600 * 1_000_000_000L;
        assertThatThrownBy(() -> TokenTimeline.tokenEventsPerSecond(Records.inOrder(
                aRequest().sentAt(0).chunksAt(ms(10)), aRequest().sentAt(eightDays).chunksAt(eightDays + ms(10)))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1-s buckets");
    }
}
