package dev.servebench.metric;

import static dev.servebench.metric.MetricId.OUTPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.OUTPUT_THROUGHPUT_RETOKENIZED;
import static dev.servebench.metric.MetricId.RETOKENIZED_MISMATCHES;
import static dev.servebench.metric.MetricId.TOTAL_OUTPUT_TOKENS;
import static dev.servebench.metric.MetricId.TOTAL_OUTPUT_TOKENS_RETOKENIZED;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.FailureKind;
import dev.servebench.record.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SGLang's retokenized totals: sums of the client tokenizer's counts over successes, absent without a tokenizer. */
class RetokenizedMetricsTest {

    private static final long D = 2_000_000_000L;
    private static final MetricOptions RETOKENIZED = MetricOptions.defaults().withRetokenizedOutput(true);

    private static List<RequestRecord> load() {
        return Records.inOrder(
                aRequest().sentAt(0).chunksAt(ms(10), ms(20), ms(30)).usage(10, 3).retokenized(3),
                aRequest().sentAt(ms(5)).chunksAt(ms(15), ms(25)).usage(10, 2).retokenized(4),
                aRequest().sentAt(ms(7)).chunksAt(ms(17)).retokenized(1), // no usage: cannot mismatch
                aRequest().sentAt(ms(9)).chunksAt(ms(19)).usage(10, 1).failed(FailureKind.RESET));
    }

    @Test
    void totalsSumTheCountsOfSuccessfulRequestsOverTheDuration() {
        ServingSummary s = SummaryCalculator.compute(load(), D, RETOKENIZED);
        assertThat(s.value(TOTAL_OUTPUT_TOKENS_RETOKENIZED)).hasValue(3 + 4 + 1);
        assertThat(s.value(OUTPUT_THROUGHPUT_RETOKENIZED)).hasValue(8 / 2.0);
        assertThat(s.value(RETOKENIZED_MISMATCHES)).hasValue(1);
        // Beside, not instead of, the server's count.
        assertThat(s.value(TOTAL_OUTPUT_TOKENS)).hasValue(3 + 2 + 1);
        assertThat(s.value(OUTPUT_THROUGHPUT)).hasValue(6 / 2.0);
        assertThat(s.tokenBasis(OUTPUT_THROUGHPUT_RETOKENIZED)).isEqualTo(TokenBasis.RETOKENIZED_OUTPUT);
        assertThat(s.retokenized().describe()).isEqualTo("client tokenizer, 3 successful requests");
        assertThat(s.notes()).noneMatch(n -> n.contains("retokenized"));
    }

    @Test
    void withoutATokenizerTheyAreAbsentNotZeroAndTheSummarySaysSo() {
        ServingSummary s = SummaryCalculator.compute(load(), D, MetricOptions.defaults());
        assertThat(s.value(TOTAL_OUTPUT_TOKENS_RETOKENIZED)).isEmpty();
        assertThat(s.value(OUTPUT_THROUGHPUT_RETOKENIZED)).isEmpty();
        assertThat(s.value(RETOKENIZED_MISMATCHES)).isEmpty();
        assertThat(s.retokenized().describe()).startsWith("not measured (no client tokenizer");
    }

    @Test
    void aSuccessWithoutItsCountLeavesTheTotalsUnreportedWithANote() {
        List<RequestRecord> records = Records.inOrder(
                aRequest().sentAt(0).chunksAt(ms(10)).usage(10, 1).retokenized(1),
                aRequest().sentAt(ms(5)).chunksAt(ms(15)).usage(10, 1));
        ServingSummary s = SummaryCalculator.compute(records, D, RETOKENIZED);
        assertThat(s.value(TOTAL_OUTPUT_TOKENS_RETOKENIZED)).isEmpty();
        assertThat(s.value(OUTPUT_THROUGHPUT_RETOKENIZED)).isEmpty();
        assertThat(s.notes()).contains("1 of 2 successful request(s) carry no retokenized output count:"
                + " total_output_tokens_retokenized and output_throughput_retokenized are not reported");
    }
}
