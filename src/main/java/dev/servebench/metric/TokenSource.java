package dev.servebench.metric;

import dev.servebench.record.RecordCursor;
import dev.servebench.record.RequestRecord;

/** Where a successful request's output length ({@code output_len_i}) comes from. */
public enum TokenSource {
    /**
     * The server's {@code usage.completion_tokens}; a request without usage falls back to its chunk count,
     * and the summary counts the fallback.
     */
    SERVER_USAGE("usage.completion_tokens from the server; chunk-counted tokens when a response carried no usage"),
    /** The sum of the token counts of the stream's events, ignoring any usage the server sent. */
    CHUNK_COUNT("tokens counted from the stream's chunks; server usage is ignored");

    private final String description;

    TokenSource(String description) {
        this.description = description;
    }

    /** One line for reports. */
    public String description() {
        return description;
    }

    /** output_len_i of one request under this source. */
    public long outputLength(RequestRecord record) {
        return switch (this) {
            case SERVER_USAGE -> record.usage().map(u -> (long) u.completionTokens()).orElseGet(record::chunkOutputTokens);
            case CHUNK_COUNT -> record.chunkOutputTokens();
        };
    }

    /** {@link #outputLength(RequestRecord)} of a stored request. */
    public long outputLength(RecordCursor request) {
        return this == SERVER_USAGE && request.hasUsage() ? request.usageCompletionTokens() : request.totalTokens();
    }

    /** Whether {@link #outputLength} had to fall back from the server's count to the chunk count. */
    public boolean fellBack(RequestRecord record) {
        return switch (this) {
            case SERVER_USAGE -> record.usage().isEmpty();
            case CHUNK_COUNT -> false;
        };
    }

    /** {@link #fellBack(RequestRecord)} of a stored request. */
    public boolean fellBack(RecordCursor request) {
        return this == SERVER_USAGE && !request.hasUsage();
    }
}
