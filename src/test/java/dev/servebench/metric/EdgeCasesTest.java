package dev.servebench.metric;

import static dev.servebench.metric.MetricId.COMPLETED;
import static dev.servebench.metric.MetricId.CONCURRENCY;
import static dev.servebench.metric.MetricId.FAILED;
import static dev.servebench.metric.MetricId.MAX_QUEUE_TIME_MS;
import static dev.servebench.metric.MetricId.MEAN_E2E_LATENCY_MS;
import static dev.servebench.metric.MetricId.MEAN_QUEUE_TIME_MS;
import static dev.servebench.metric.MetricId.MEAN_TTFT_MS;
import static dev.servebench.metric.MetricId.MEDIAN_QUEUE_TIME_MS;
import static dev.servebench.metric.MetricId.OUTPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.P99_QUEUE_TIME_MS;
import static dev.servebench.metric.MetricId.REQUEST_GOODPUT;
import static dev.servebench.metric.MetricId.REQUEST_THROUGHPUT;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.record.FailureKind;
import dev.servebench.record.RequestRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class EdgeCasesTest {

    private static final MetricOptions WITH_GOODPUT = MetricOptions.defaults().withGoodput(GoodputSlo.ofTtftMs(100));

    @Test
    void allFailedGivesZeroesNotNanAndSaysSo() {
        ServingSummary s = SummaryCalculator.compute(Records.inOrder(
                        aRequest().sentAt(0).endAt(ms(30_000)).failed(FailureKind.TIMEOUT),
                        aRequest().sentAt(ms(10)).chunksAt(ms(20)).endAt(ms(30_000)).failed(FailureKind.TIMEOUT),
                        aRequest().intendedAt(0).sentAt(ms(900)).endAt(ms(950)).failed(FailureKind.HTTP_STATUS)),
                // With a client tokenizer: the retokenized total of no successes is SGLang's sum of zeros.
                31_000_000_000L, WITH_GOODPUT.withRetokenizedOutput(true));
        for (MetricId id : MetricId.values()) {
            double expected = switch (id) {
                case FAILED -> 3.0;
                case BENCHMARK_DURATION -> 31.0;
                // Dispatch lag covers every request: the third was sent 0.9 s after it was due.
                case MEAN_DISPATCH_LAG_MS -> (0.0 + (-0.0 + 0.0 + 0.0 + 0.9)) / 3 * 1000;
                case P99_DISPATCH_LAG_MS -> (0.9 - 0.9 * (1 - (2 * (99 / 100.0) - 1))) * 1000;
                case MAX_DISPATCH_LAG_MS -> 0.9 * 1000;
                default -> 0.0;
            };
            assertThat(s.value(id)).as(id.id()).hasValue(expected);
        }
        assertThat(s.failures(FailureKind.TIMEOUT)).isEqualTo(2);
        assertThat(s.failures(FailureKind.HTTP_STATUS)).isEqualTo(1);
        assertThat(s.failures(FailureKind.CONNECT)).isZero();
        assertThat(s.notes()).contains("every request failed: latency statistics are 0 (SGLang would crash here)");
    }

    @Test
    void noRecordsAtAll() {
        ServingSummary s = SummaryCalculator.compute(List.of(), 1_000_000_000L, MetricOptions.defaults());
        assertThat(s.requests()).isZero();
        assertThat(s.value(COMPLETED)).hasValue(0.0);
        assertThat(s.value(FAILED)).hasValue(0.0);
        assertThat(s.value(MEAN_E2E_LATENCY_MS)).hasValue(0.0);
        assertThat(s.notes()).containsExactly("no requests were recorded: every metric is 0");
    }

    @Test
    void zeroDurationReportsZeroRatesInsteadOfInfinity() {
        ServingSummary s = SummaryCalculator.compute(
                Records.inOrder(aRequest().sentAt(0).chunksAt(ms(50), ms(100))), 0, WITH_GOODPUT);
        assertThat(s.value(REQUEST_THROUGHPUT)).hasValue(0.0);
        assertThat(s.value(OUTPUT_THROUGHPUT)).hasValue(0.0);
        assertThat(s.value(CONCURRENCY)).hasValue(0.0);
        assertThat(s.value(REQUEST_GOODPUT)).hasValue(0.0);
        // latencies do not depend on D
        assertThat(s.value(MEAN_TTFT_MS)).hasValue(50.0);
        assertThat(s.values().values()).allMatch(Double::isFinite);
        assertThat(s.notes()).anyMatch(n -> n.startsWith("benchmark duration is 0"));
    }

    @Test
    void queueTimeCoversSuccessfulRequests() {
        ServingSummary s = SummaryCalculator.compute(Records.inOrder(
                        aRequest().intendedAt(0).sentAt(ms(250)).chunksAt(ms(300)),
                        aRequest().intendedAt(ms(500)).sentAt(ms(1000)).chunksAt(ms(1100)),
                        aRequest().intendedAt(0).sentAt(ms(2000)).endAt(ms(2001)).failed(FailureKind.CANCELLED)),
                3_000_000_000L, MetricOptions.defaults());
        assertThat(s.value(MEAN_QUEUE_TIME_MS)).hasValue(375.0);
        assertThat(s.value(MEDIAN_QUEUE_TIME_MS)).hasValue(375.0);
        assertThat(s.value(P99_QUEUE_TIME_MS)).hasValue((0.5 - 0.25 * (1 - 0.99)) * 1000);
        assertThat(s.value(MAX_QUEUE_TIME_MS)).hasValue(500.0);
    }

    @Test
    void recordsAreTakenInDispatchOrderWhateverTheListOrder() {
        // Nine TTFTs whose pairwise sum depends on their order: 8e9 s and eight of 100 ns. In dispatch order
        // the long one sits in the first accumulator and swallows every partial sum of the short ones
        // (at most 4e-7, below half an ulp of 8e9); reversed, the short ones add up to 8e-7 first.
        List<RequestRecord> ordered = new ArrayList<>();
        ordered.add(aRequest().index(0).sentAt(0).chunksAt(8_000_000_000_000_000_000L).build());
        for (int i = 1; i < 9; i++) {
            ordered.add(aRequest().index(i).sentAt(0).chunksAt(100L).build());
        }
        List<RequestRecord> shuffled = new ArrayList<>(ordered);
        Collections.reverse(shuffled);
        double big = 8e9;
        double small = 1e-7;
        double inOrder = (((big + small) + (small + small)) + ((small + small) + (small + small))) + small;
        double reversed = (((small + small) + (small + small)) + ((small + small) + (small + small))) + big;
        assertThat(inOrder).isEqualTo(big);
        assertThat(reversed).isGreaterThan(big);
        ServingSummary s = SummaryCalculator.compute(shuffled, 1_000_000_000L, MetricOptions.defaults());
        assertThat(s.value(MEAN_TTFT_MS)).hasValue(inOrder / 9 * 1000);
    }

    @Test
    void rejectsInvalidInput() {
        List<RequestRecord> twice = List.of(aRequest().index(3).sentAt(0).build(), aRequest().index(3).sentAt(0).build());
        assertThatThrownBy(() -> SummaryCalculator.compute(twice, 1, MetricOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("index 3 twice");
        assertThatThrownBy(() -> SummaryCalculator.compute(List.of(), -1, MetricOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("benchmarkDurationNanos (-1)");
        assertThatThrownBy(() -> SummaryCalculator.compute(List.of(), 1, null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("options");
    }

    @Test
    void summaryIsImmutable() {
        ServingSummary s = SummaryCalculator.compute(Records.inOrder(aRequest().sentAt(0).chunksAt(ms(1))), 1,
                MetricOptions.defaults());
        assertThatThrownBy(() -> s.values().put(COMPLETED, 5.0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.notes().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.failuresByKind().put(FailureKind.RESET, 1))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
