package dev.servebench.client;

/**
 * What one stream event says, filled in place by a {@link ChunkParser} (one instance per exchange, reused
 * for every event so that parsing allocates nothing per token).
 */
public final class ParsedChunk {

    /** The event's role in the stream. */
    public enum Kind {
        /** Carries a non-empty {@code choices} array (its text may be empty) or, for /generate, a progress update. */
        CHOICES,
        /** Only metadata, e.g. the usage-only chunk with {@code "choices": []}. */
        METADATA,
        /** The {@code [DONE]} sentinel. */
        DONE,
        /** An error object sent inside the stream. */
        ERROR
    }

    Kind kind;
    int tokens;
    int usagePromptTokens = -1;
    int usageCompletionTokens = -1;
    String errorMessage;

    void reset() {
        kind = Kind.METADATA;
        tokens = 0;
        usagePromptTokens = -1;
        usageCompletionTokens = -1;
        errorMessage = null;
    }

    public Kind kind() {
        return kind;
    }

    /** Tokens this event adds to the output (0 for an empty delta). */
    public int tokens() {
        return tokens;
    }

    public boolean hasUsage() {
        return usagePromptTokens >= 0 && usageCompletionTokens >= 0;
    }

    public int usagePromptTokens() {
        return usagePromptTokens;
    }

    public int usageCompletionTokens() {
        return usageCompletionTokens;
    }

    public String errorMessage() {
        return errorMessage;
    }
}
