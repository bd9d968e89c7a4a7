package dev.servebench.metric;

import static dev.servebench.metric.MetricId.INPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.OUTPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.PROMPT_TOKEN_MISMATCHES;
import static dev.servebench.metric.MetricId.PROMPT_USAGE_MISSING;
import static dev.servebench.metric.MetricId.SERVER_INPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.SERVER_INPUT_TOKENS;
import static dev.servebench.metric.MetricId.SERVER_TOTAL_THROUGHPUT;
import static dev.servebench.metric.MetricId.TOTAL_INPUT_TOKENS;
import static dev.servebench.metric.MetricId.TOTAL_OUTPUT_TOKENS;
import static dev.servebench.metric.MetricId.TOTAL_THROUGHPUT;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.FailureKind;
import dev.servebench.record.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Input counts under each input token source, from hand-built records (D = 2 s). */
class InputTokenSourceTest {

    private static final long D = ms(2000);

    /**
     * Prompt lengths 10, 20, 30 (dataset); the server reports 11 (a BOS), 20, and nothing for the third;
     * a failed request with usage 500 is left out. Outputs: 3, 2, 1 chunk tokens, usage where sent.
     */
    private static List<RequestRecord> records() {
        return Records.inOrder(
                aRequest().prompt(10).sentAt(0).chunksAt(ms(100), ms(200), ms(300)).usage(11, 3),
                aRequest().prompt(20).sentAt(0).chunksAt(ms(100), ms(200)).usage(20, 2),
                aRequest().prompt(30).sentAt(0).chunksAt(ms(100)),
                aRequest().prompt(40).sentAt(0).usage(500, 0).failed(FailureKind.HTTP_STATUS));
    }

    private static ServingSummary summary(InputTokenSource source, DatasetPromptLengths lengths) {
        return SummaryCalculator.compute(records(), D, MetricOptions.defaults().withInputTokenSource(source)
                .withPromptLengths(lengths));
    }

    @Test
    void datasetSourceKeepsSglangsPromptLenAndReportsTheServersCountBeside() {
        ServingSummary s = summary(InputTokenSource.DATASET, DatasetPromptLengths.EXACT);

        assertThat(s.value(TOTAL_INPUT_TOKENS)).hasValue(60);
        assertThat(s.value(INPUT_THROUGHPUT)).hasValue(60 / 2.0);
        assertThat(s.value(TOTAL_OUTPUT_TOKENS)).hasValue(6);
        assertThat(s.value(TOTAL_THROUGHPUT)).hasValue((60 + 6) / 2.0);
        // 11 + 20 from usage, 30 from the dataset for the request without usage.
        assertThat(s.value(SERVER_INPUT_TOKENS)).hasValue(61);
        assertThat(s.value(SERVER_INPUT_THROUGHPUT)).hasValue(61 / 2.0);
        assertThat(s.value(SERVER_TOTAL_THROUGHPUT)).hasValue((61 + 6) / 2.0);
        assertThat(s.value(PROMPT_TOKEN_MISMATCHES)).hasValue(1);
        assertThat(s.value(PROMPT_USAGE_MISSING)).hasValue(1);
        assertThat(s.tokenBasis(TOTAL_INPUT_TOKENS)).isEqualTo(TokenBasis.PROMPT_LENGTH);
        assertThat(s.tokenBasis(TOTAL_THROUGHPUT)).isEqualTo(TokenBasis.PROMPT_AND_OUTPUT_LENGTH);
        assertThat(s.formula(TOTAL_INPUT_TOKENS)).isEqualTo("sum of dataset prompt_len over successful requests");
        assertThat(s.inputTokens().fallbacks()).isZero();
        assertThat(s.notes()).noneMatch(n -> n.contains("prompt"));
    }

    @Test
    void usageSourceCountsWhatTheServerReportedAndFallsBackPerRequest() {
        ServingSummary s = summary(InputTokenSource.SERVER_USAGE, DatasetPromptLengths.EXACT);

        assertThat(s.value(TOTAL_INPUT_TOKENS)).hasValue(61);
        assertThat(s.value(INPUT_THROUGHPUT)).hasValue(61 / 2.0);
        assertThat(s.value(TOTAL_THROUGHPUT)).hasValue((61 + 6) / 2.0);
        assertThat(s.value(SERVER_INPUT_TOKENS)).hasValue(61);
        assertThat(s.value(OUTPUT_THROUGHPUT)).hasValue(6 / 2.0);
        assertThat(s.tokenBasis(TOTAL_INPUT_TOKENS)).isEqualTo(TokenBasis.USAGE_PROMPT_TOKENS);
        assertThat(s.tokenBasis(INPUT_THROUGHPUT)).isEqualTo(TokenBasis.USAGE_PROMPT_TOKENS);
        assertThat(s.tokenBasis(TOTAL_THROUGHPUT)).isEqualTo(TokenBasis.USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH);
        assertThat(s.formula(TOTAL_INPUT_TOKENS)).contains("usage.prompt_tokens");
        assertThat(s.inputTokens().fallbacks()).isEqualTo(1);
        // Token ids: the fallback is the exact count, so it is noted but not called an estimate.
        assertThat(s.notes()).contains("1 successful request(s) had no usage.prompt_tokens: their input length is the"
                + " dataset's prompt_len");
        assertThat(s.estimate(TOTAL_INPUT_TOKENS)).isEmpty();
    }

    @Test
    void textPromptsCountedFromTheDatasetAreNamedEstimatesWhereverTheyAreUsed() {
        ServingSummary s = summary(InputTokenSource.DATASET, DatasetPromptLengths.ESTIMATED);

        String why = "input tokens are estimated from the prompt's words: the dataset's prompt_len of all 3 requests"
                + " (--input-token-source dataset, SGLang's definition); the server's own count is server_input_tokens,"
                + " where 1 of 3 requests had no usage.prompt_tokens";
        // One note: it names the server's count and its gaps too.
        assertThat(s.notes()).containsOnlyOnce(why).filteredOn(n -> n.contains("estimated")).hasSize(1);
        for (MetricId id : List.of(TOTAL_INPUT_TOKENS, INPUT_THROUGHPUT, TOTAL_THROUGHPUT)) {
            assertThat(s.estimate(id)).as(id.id()).contains(why);
        }
        assertThat(s.estimate(SERVER_INPUT_THROUGHPUT)).contains("input tokens are estimated from the prompt's words:"
                + " 1 of 3 requests had no usage.prompt_tokens");
        assertThat(s.estimate(OUTPUT_THROUGHPUT)).isEmpty();
        assertThat(s.estimate(PROMPT_TOKEN_MISMATCHES)).isEmpty();
        assertThat(s.inputTokens().describe()).isEqualTo("dataset prompt_len (estimated from words)");
    }

    @Test
    void textPromptsWithUsageOnEveryResponseAreExactUnderTheUsageSource() {
        List<RequestRecord> all = Records.inOrder(
                aRequest().prompt(10).sentAt(0).chunksAt(ms(100)).usage(37, 1),
                aRequest().prompt(10).sentAt(0).chunksAt(ms(100)).usage(41, 1));
        ServingSummary s = SummaryCalculator.compute(all, D, MetricOptions.defaults()
                .withInputTokenSource(InputTokenSource.SERVER_USAGE).withPromptLengths(DatasetPromptLengths.ESTIMATED));

        assertThat(s.value(TOTAL_INPUT_TOKENS)).hasValue(78);
        assertThat(s.value(INPUT_THROUGHPUT)).hasValue(78 / 2.0);
        assertThat(s.estimate(INPUT_THROUGHPUT)).isEmpty();
        assertThat(s.estimate(SERVER_TOTAL_THROUGHPUT)).isEmpty();
        assertThat(s.notes()).isEmpty();
        assertThat(s.inputTokens().describe()).isEqualTo("server usage.prompt_tokens");
    }

    @Test
    void textPromptsWithoutUsageAreEstimatesUnderTheUsageSourceToo() {
        ServingSummary s = summary(InputTokenSource.SERVER_USAGE, DatasetPromptLengths.ESTIMATED);

        String why = "input tokens are estimated from the prompt's words: 1 of 3 requests had no usage.prompt_tokens";
        assertThat(s.notes()).contains(why);
        assertThat(s.estimate(TOTAL_THROUGHPUT)).contains(why);
        assertThat(s.estimate(SERVER_INPUT_TOKENS)).contains(why);
        assertThat(s.inputTokens().describe()).isEqualTo("server usage.prompt_tokens (1 from dataset, estimated)");
    }

    @Test
    void noSuccessNoEstimate() {
        List<RequestRecord> failed = Records.inOrder(aRequest().prompt(10).failed(FailureKind.RESET));
        ServingSummary s = SummaryCalculator.compute(failed, D, MetricOptions.defaults()
                .withPromptLengths(DatasetPromptLengths.ESTIMATED));

        assertThat(s.value(SERVER_INPUT_TOKENS)).hasValue(0);
        assertThat(s.estimate(TOTAL_INPUT_TOKENS)).isEmpty();
    }
}
