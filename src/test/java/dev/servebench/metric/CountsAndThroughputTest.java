package dev.servebench.metric;

import static dev.servebench.metric.MetricId.BENCHMARK_DURATION;
import static dev.servebench.metric.MetricId.COMPLETED;
import static dev.servebench.metric.MetricId.CONCURRENCY;
import static dev.servebench.metric.MetricId.FAILED;
import static dev.servebench.metric.MetricId.INPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.OUTPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.REQUEST_THROUGHPUT;
import static dev.servebench.metric.MetricId.TOTAL_INPUT_TOKENS;
import static dev.servebench.metric.MetricId.TOTAL_OUTPUT_TOKENS;
import static dev.servebench.metric.MetricId.TOTAL_THROUGHPUT;
import static dev.servebench.metric.MetricId.VLLM_COMPLETED;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.FailureKind;
import org.junit.jupiter.api.Test;

class CountsAndThroughputTest {

    /** Two successes (3 and 2 tokens) and one failure over D = 4 s. */
    private static ServingSummary twoOfThree() {
        return SummaryCalculator.compute(Records.inOrder(
                        aRequest().prompt(100).sentAt(0).chunksAt(ms(500), ms(1000), ms(1500)).endAt(ms(2000))
                                .usage(100, 3),
                        aRequest().prompt(50).sentAt(ms(250)).chunksAt(ms(750), ms(1250)).endAt(ms(1500))
                                .usage(50, 2),
                        aRequest().prompt(70).sentAt(ms(500)).endAt(ms(500)).failed(FailureKind.CONNECT)),
                4_000_000_000L, MetricOptions.defaults());
    }

    @Test
    void countsAndTotalsCoverSuccessfulRequestsOnly() {
        ServingSummary s = twoOfThree();
        assertThat(s.requests()).isEqualTo(3);
        assertThat(s.value(COMPLETED)).hasValue(2.0);
        assertThat(s.value(VLLM_COMPLETED)).hasValue(2.0);
        assertThat(s.value(FAILED)).hasValue(1.0);
        assertThat(s.failures(FailureKind.CONNECT)).isEqualTo(1);
        assertThat(s.failures(FailureKind.TIMEOUT)).isZero();
        assertThat(s.failedOutcomes()).isEqualTo(1);
        // the failed request's prompt (70) is not input
        assertThat(s.value(TOTAL_INPUT_TOKENS)).hasValue(150.0);
        assertThat(s.value(TOTAL_OUTPUT_TOKENS)).hasValue(5.0);
    }

    @Test
    void throughputsDivideByTheBenchmarkDuration() {
        ServingSummary s = twoOfThree();
        assertThat(s.value(BENCHMARK_DURATION)).hasValue(4.0);
        assertThat(s.value(REQUEST_THROUGHPUT)).hasValue(0.5);
        assertThat(s.value(INPUT_THROUGHPUT)).hasValue(37.5);
        assertThat(s.value(OUTPUT_THROUGHPUT)).hasValue(1.25);
        assertThat(s.value(TOTAL_THROUGHPUT)).hasValue(38.75);
    }

    @Test
    void concurrencyIsTotalLatencyOverDuration() {
        // latencies 2.0 s and 1.25 s (to the [DONE] line), D = 4 s
        assertThat(twoOfThree().value(CONCURRENCY)).hasValue(0.8125);
    }

    @Test
    void throughputIsOneDivisionOfExactIntegerTotals() {
        ServingSummary s = SummaryCalculator.compute(Records.inOrder(
                        aRequest().prompt(151).sentAt(0).chunksAt(ms(1), ms(2), ms(3), ms(4)).usage(151, 4)),
                3_000_000_000L, MetricOptions.defaults());
        assertThat(s.value(REQUEST_THROUGHPUT)).hasValue(1 / 3.0).hasValue(0.3333333333333333);
        assertThat(s.value(TOTAL_THROUGHPUT)).hasValue(155 / 3.0).hasValue(51.666666666666664);
        // (151 / 3.0) + (4 / 3.0) would be 51.66666666666667
        assertThat(151 / 3.0 + 4 / 3.0).isNotEqualTo(51.666666666666664);
    }

    @Test
    void durationIsNanosOverOneBillion() {
        ServingSummary s = SummaryCalculator.compute(Records.inOrder(aRequest().sentAt(0).chunksAt(ms(1))),
                1_500_000_001L, MetricOptions.defaults());
        assertThat(s.value(BENCHMARK_DURATION)).hasValue(1.500000001);
        assertThat(s.benchmarkDurationNanos()).isEqualTo(1_500_000_001L);
    }

    @Test
    void concurrencySumsLatenciesPairwiseInDispatchOrder() {
        // Nine latencies: 8e9 s and eight of 400 ns, each below half an ulp of 8e9 (2^-21 s): left to right
        // every small one is lost, while the pairwise tree first adds them to each other.
        Records.Builder[] builders = new Records.Builder[9];
        builders[0] = aRequest().sentAt(0).endAt(8_000_000_000_000_000_000L);
        for (int i = 1; i < 9; i++) {
            builders[i] = aRequest().sentAt(0).endAt(400L);
        }
        ServingSummary s = SummaryCalculator.compute(Records.inOrder(builders), 1_000_000_000L,
                MetricOptions.defaults());
        double big = 8e9;
        double us = 4e-7;
        // 8 accumulators: (big + us) and seven times us, then the ninth us added after the tree
        double expected = (((big + us) + (us + us)) + ((us + us) + (us + us))) + us;
        assertThat(expected).isGreaterThan(big);
        assertThat(s.value(CONCURRENCY)).hasValue(expected);
        double naive = big;
        for (int i = 0; i < 8; i++) {
            naive += us;
        }
        assertThat(naive).isNotEqualTo(expected);
    }
}
