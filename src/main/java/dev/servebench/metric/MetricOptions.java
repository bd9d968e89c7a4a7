package dev.servebench.metric;

import java.util.Objects;
import java.util.Optional;

/**
 * Choices that change metric values, and what the run knows about its prompts.
 *
 * @param tokenSource      where output_len_i comes from
 * @param inputTokenSource where the SGLang input metrics take input lengths from
 * @param promptLengths    whether the dataset's prompt_len is exact (token ids), tokenizer-counted (text with a
 *                         tokenizer) or an estimate (text): decides
 *                         which input counts the summary calls estimates
 * @param goodput          vLLM goodput objectives; {@code request_goodput} is absent without them
 * @param retokenizedOutput whether a client tokenizer re-counted every successful request's generated text;
 *                         the retokenized metrics are absent without one (not 0)
 */
public record MetricOptions(TokenSource tokenSource, InputTokenSource inputTokenSource,
                            DatasetPromptLengths promptLengths, Optional<GoodputSlo> goodput,
                            boolean retokenizedOutput) {

    public MetricOptions {
        Objects.requireNonNull(tokenSource, "tokenSource");
        Objects.requireNonNull(inputTokenSource, "inputTokenSource");
        Objects.requireNonNull(promptLengths, "promptLengths");
        Objects.requireNonNull(goodput, "goodput");
    }

    /** Without a client tokenizer re-counting the output. */
    public MetricOptions(TokenSource tokenSource, InputTokenSource inputTokenSource, DatasetPromptLengths promptLengths,
                         Optional<GoodputSlo> goodput) {
        this(tokenSource, inputTokenSource, promptLengths, goodput, false);
    }

    /** SGLang's input counts (the dataset's prompt_len, exact). */
    public MetricOptions(TokenSource tokenSource, Optional<GoodputSlo> goodput) {
        this(tokenSource, InputTokenSource.DATASET, DatasetPromptLengths.EXACT, goodput);
    }

    /** Server usage with chunk-count fallback, no goodput. */
    public static MetricOptions defaults() {
        return new MetricOptions(TokenSource.SERVER_USAGE, Optional.empty());
    }

    public static MetricOptions of(TokenSource tokenSource) {
        return new MetricOptions(tokenSource, Optional.empty());
    }

    public MetricOptions withGoodput(GoodputSlo slo) {
        return new MetricOptions(tokenSource, inputTokenSource, promptLengths, Optional.of(slo), retokenizedOutput);
    }

    public MetricOptions withInputTokenSource(InputTokenSource source) {
        return new MetricOptions(tokenSource, source, promptLengths, goodput, retokenizedOutput);
    }

    public MetricOptions withPromptLengths(DatasetPromptLengths lengths) {
        return new MetricOptions(tokenSource, inputTokenSource, lengths, goodput, retokenizedOutput);
    }

    /** {@code retokenized}: whether a client tokenizer re-counted the generated text. */
    public MetricOptions withRetokenizedOutput(boolean retokenized) {
        return new MetricOptions(tokenSource, inputTokenSource, promptLengths, goodput, retokenized);
    }
}
