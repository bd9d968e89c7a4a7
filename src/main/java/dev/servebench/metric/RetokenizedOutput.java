package dev.servebench.metric;

import java.util.List;
import java.util.OptionalDouble;

/**
 * SGLang's retokenized output count over one load point: the client tokenizer's count of each successful
 * request's generated text ({@code len(tokenizer.encode(generated_text, add_special_tokens=False))}), which
 * SGLang reports beside the server's count. Measured only with a client tokenizer; a value not measured is
 * absent, never 0.
 *
 * @param measured        whether the run re-counted the generated text (it had a client tokenizer)
 * @param successes       successful requests (SGLang sums over them; failed ones count 0)
 * @param missing         successful requests without a count (a records file that lacks them): with any, the
 *                        total is not reported
 * @param totalTokens     sum of the counts present
 * @param usageMismatches successful requests with server usage whose usage.completion_tokens differs from the count
 */
public record RetokenizedOutput(boolean measured, int successes, int missing, long totalTokens, int usageMismatches) {

    public RetokenizedOutput {
        if (successes < 0 || missing < 0 || totalTokens < 0 || usageMismatches < 0) {
            throw new IllegalArgumentException("counts must be >= 0, got successes " + successes + ", missing "
                    + missing + ", totalTokens " + totalTokens + ", usageMismatches " + usageMismatches);
        }
        if (missing + usageMismatches > successes) {
            throw new IllegalArgumentException("missing (" + missing + ") + usageMismatches (" + usageMismatches
                    + ") must be <= successes (" + successes + ")");
        }
        if (!measured && (missing != 0 || totalTokens != 0 || usageMismatches != 0)) {
            throw new IllegalArgumentException("a run that did not retokenize has no retokenized counts");
        }
    }

    /** No client tokenizer. */
    public static RetokenizedOutput notMeasured() {
        return new RetokenizedOutput(false, 0, 0, 0, 0);
    }

    /** Whether every successful request carries its count, so that the totals mean what SGLang's mean. */
    public boolean complete() {
        return measured && missing == 0;
    }

    /** {@code total_output_tokens_retokenized}, or empty when not (completely) measured. */
    public OptionalDouble total() {
        return complete() ? OptionalDouble.of(totalTokens) : OptionalDouble.empty();
    }

    /** Requests whose retokenized count differs from usage.completion_tokens, or empty when not measured. */
    public OptionalDouble mismatches() {
        return complete() ? OptionalDouble.of(usageMismatches) : OptionalDouble.empty();
    }

    /** One line for the console and the summary file. */
    public String describe() {
        if (!measured) {
            return "not measured (no client tokenizer: --tokenizer, workload.tokenizer)";
        }
        if (missing > 0) {
            return "incomplete: " + missing + " of " + successes + " successful requests have no count";
        }
        return "client tokenizer, " + successes + " successful requests";
    }

    /** The summary's note when the counts are incomplete; none otherwise. */
    public List<String> notes() {
        return complete() || !measured ? List.of() : List.of(missing + " of " + successes + " successful request(s)"
                + " carry no retokenized output count: total_output_tokens_retokenized and"
                + " output_throughput_retokenized are not reported");
    }
}
