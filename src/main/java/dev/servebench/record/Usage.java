package dev.servebench.record;

/**
 * Token counts the server reported in its {@code usage} object.
 *
 * @param promptTokens     {@code usage.prompt_tokens}
 * @param completionTokens {@code usage.completion_tokens}
 */
public record Usage(int promptTokens, int completionTokens) {
    public Usage {
        if (promptTokens < 0) {
            throw new IllegalArgumentException("promptTokens (" + promptTokens + ") must be >= 0");
        }
        if (completionTokens < 0) {
            throw new IllegalArgumentException("completionTokens (" + completionTokens + ") must be >= 0");
        }
    }
}
