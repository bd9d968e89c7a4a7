package dev.servebench.workload;

import java.util.Objects;

/**
 * One dataset row, ready to send.
 *
 * @param index          position in the dataset (0-based); the load driver dispatches in this order
 * @param prompt         the prompt to send
 * @param promptLen      prompt length in tokens: exact for {@link PromptInput.TokenIds}; for
 *                       {@link PromptInput.Text} the count of the run's {@link Tokenizer} (special tokens
 *                       included), or without one the target or estimated length (the server's
 *                       {@code usage.prompt_tokens} is then the truth)
 * @param promptLenExact whether {@code promptLen} is an exact token count (always true for token ids; for
 *                       text, true when a tokenizer counted it)
 * @param outputLen      max_tokens to request
 */
public record PromptRequest(int index, PromptInput prompt, int promptLen, boolean promptLenExact, int outputLen) {

    public PromptRequest {
        if (index < 0) {
            throw new IllegalArgumentException("index (" + index + ") must be >= 0");
        }
        Objects.requireNonNull(prompt, "prompt");
        if (promptLen < 0) {
            throw new IllegalArgumentException("promptLen (" + promptLen + ") must be >= 0");
        }
        if (outputLen < 0) {
            throw new IllegalArgumentException("outputLen (" + outputLen + ") must be >= 0");
        }
        if (prompt instanceof PromptInput.TokenIds ids) {
            if (!promptLenExact) {
                throw new IllegalArgumentException("promptLenExact (false) must be true for token ids");
            }
            if (promptLen != ids.length()) {
                throw new IllegalArgumentException(
                        "promptLen (" + promptLen + ") must equal the number of token ids (" + ids.length() + ")");
            }
        }
    }

    /** A row whose prompt is token ids; its length is exact by construction. */
    public static PromptRequest ofTokenIds(int index, int[] ids, int outputLen) {
        return new PromptRequest(index, new PromptInput.TokenIds(ids), ids.length, true, outputLen);
    }

    /** A row whose prompt is text with an estimated token count. */
    public static PromptRequest ofText(int index, String text, int estimatedPromptLen, int outputLen) {
        return new PromptRequest(index, new PromptInput.Text(text), estimatedPromptLen, false, outputLen);
    }

    /** A row whose prompt is text counted by the run's tokenizer: {@code promptLen} is exact in that tokenizer. */
    public static PromptRequest ofCountedText(int index, String text, int promptLen, int outputLen) {
        return new PromptRequest(index, new PromptInput.Text(text), promptLen, true, outputLen);
    }

    /** The same row at another index with another output length (warmup copies). */
    PromptRequest with(int newIndex, int newOutputLen) {
        return new PromptRequest(newIndex, prompt, promptLen, promptLenExact, newOutputLen);
    }
}
