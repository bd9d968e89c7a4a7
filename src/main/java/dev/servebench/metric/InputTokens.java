package dev.servebench.metric;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one load point's input counts rest on: the source the SGLang input metrics used, whether the
 * dataset's prompt_len was exact, and how the server's usage.prompt_tokens compared with it. Decides which
 * input counts are estimates, so the summary, the console and every verdict on them can say so.
 *
 * @param source         where total_input_tokens, input_throughput and total_throughput took input lengths
 * @param datasetLengths whether the dataset's prompt_len is exact (token ids), counted by the client tokenizer
 *                       (text with --tokenizer) or estimated (text)
 * @param successes      successful requests (the population every input count sums over)
 * @param usageMissing   successful requests without usage.prompt_tokens (they fall back to prompt_len)
 * @param mismatches     successful requests whose usage.prompt_tokens differs from prompt_len
 */
public record InputTokens(InputTokenSource source, DatasetPromptLengths datasetLengths, int successes,
                          int usageMissing, int mismatches) {

    public InputTokens {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(datasetLengths, "datasetLengths");
        if (successes < 0 || usageMissing < 0 || mismatches < 0) {
            throw new IllegalArgumentException("counts must be >= 0, got successes " + successes + ", usageMissing "
                    + usageMissing + ", mismatches " + mismatches);
        }
        if (usageMissing + mismatches > successes) {
            throw new IllegalArgumentException("usageMissing (" + usageMissing + ") + mismatches (" + mismatches
                    + ") must be <= successes (" + successes + ")");
        }
    }

    /** Nothing measured yet: SGLang's source, exact lengths, no requests. */
    public static InputTokens none() {
        return new InputTokens(InputTokenSource.DATASET, DatasetPromptLengths.EXACT, 0, 0, 0);
    }

    /** Requests whose input length under {@link #source} fell back from the server's count to prompt_len. */
    public int fallbacks() {
        return source == InputTokenSource.SERVER_USAGE ? usageMissing : 0;
    }

    /** The metric's input count is an estimate: why, in one sentence; empty when it is exact or counts none. */
    public Optional<String> estimate(TokenBasis basis) {
        if (datasetLengths.counted() || successes == 0) {
            return Optional.empty();
        }
        return switch (basis.inputCount()) {
            case NONE -> Optional.empty();
            case DATASET -> Optional.of(ESTIMATED + "the dataset's prompt_len of all " + successes + " requests"
                    + " (--input-token-source dataset, SGLang's definition); the server's own count is"
                    + " server_input_tokens" + (usageMissing == 0 ? "" : ", where " + missing()));
            case USAGE -> usageMissing == 0 ? Optional.empty() : Optional.of(ESTIMATED + missing());
        };
    }

    /** The summary's notes on input counts: each estimate in use, and fallbacks of exact counts. */
    public List<String> notes() {
        List<String> notes = new ArrayList<>();
        if (source == InputTokenSource.DATASET) {
            estimate(TokenBasis.PROMPT_LENGTH).ifPresent(notes::add);
        }
        Optional<String> usage = estimate(TokenBasis.USAGE_PROMPT_TOKENS);
        if (usage.isPresent() && source == InputTokenSource.SERVER_USAGE) {
            notes.add(usage.get());
        } else if (usageMissing > 0 && source == InputTokenSource.SERVER_USAGE) {
            // Token-id prompts: the fallback is exact up to a BOS, so it is worth a note, not a warning.
            notes.add(usageMissing + " successful request(s) had no usage.prompt_tokens: their input length is the"
                    + " dataset's prompt_len");
        }
        return notes;
    }

    /** One line for the console: which count, and how sure. */
    public String describe() {
        return switch (source) {
            case DATASET -> "dataset prompt_len (" + datasetLengths.describe() + ")";
            case SERVER_USAGE -> "server usage.prompt_tokens" + (usageMissing == 0 ? ""
                    : " (" + usageMissing + " from dataset" + (datasetLengths.counted() ? ")" : ", estimated)"));
        };
    }

    private static final String ESTIMATED = "input tokens are estimated from the prompt's words: ";

    private String missing() {
        return usageMissing + " of " + successes + " requests had no usage.prompt_tokens";
    }
}
