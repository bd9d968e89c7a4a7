package dev.servebench.testserver;

import java.util.Objects;

/**
 * What goes wrong with a scripted response. "Chunks" always means token-bearing chunks: the chat role chunk,
 * pings, empty-content chunks and injected invalid events are not counted.
 */
public sealed interface Fault {

    /** A well-formed response. */
    record None() implements Fault {
    }

    /** The whole answer is this status and body (sent at arrival, before any stream), then keep-alive as usual. */
    record HttpError(int status, String body) implements Fault {
        public HttpError {
            if (status < 400 || status > 599) {
                throw new IllegalArgumentException("status (" + status + ") must be in 400..599");
            }
            Objects.requireNonNull(body, "body");
        }
    }

    /** After {@code chunks} token chunks (0 = right after the headers), close abruptly with an RST. */
    record ResetAfter(int chunks) implements Fault {
        public ResetAfter {
            requireNonNegative("chunks", chunks);
        }
    }

    /** After {@code chunks} token chunks send nothing more but keep the connection open. */
    record StallAfter(int chunks) implements Fault {
        public StallAfter {
            requireNonNegative("chunks", chunks);
        }
    }

    /**
     * A truncated, unparseable {@code data:} event is inserted just before token chunk {@code chunk} (0-based);
     * a position past the last chunk puts it after the last chunk, before usage and [DONE].
     */
    record InvalidJsonAt(int chunk) implements Fault {
        public InvalidJsonAt {
            requireNonNegative("chunk", chunk);
        }
    }

    /** The stream ends (cleanly terminated chunked body) without the {@code data: [DONE]} event. */
    record NoDone() implements Fault {
    }

    /**
     * After {@code afterChunks} token chunks, an {@code {"error":{...}}} event replaces the rest of the stream
     * (no more tokens, no usage), followed by [DONE] as vLLM does.
     */
    record InStreamError(int afterChunks, String message, String type, int code) implements Fault {
        public InStreamError {
            requireNonNegative("afterChunks", afterChunks);
            Objects.requireNonNull(message, "message");
            Objects.requireNonNull(type, "type");
        }
    }

    static Fault none() {
        return new None();
    }

    /** An OpenAI-style error answer, e.g. {@code httpError(429, "rate_limit_exceeded", "slow down")}. */
    static HttpError httpError(int status, String type, String message) {
        return new HttpError(status, Json.errorBody(message, type, status));
    }

    static ResetAfter resetAfter(int chunks) {
        return new ResetAfter(chunks);
    }

    static StallAfter stallAfter(int chunks) {
        return new StallAfter(chunks);
    }

    static InvalidJsonAt invalidJsonAt(int chunk) {
        return new InvalidJsonAt(chunk);
    }

    static NoDone noDone() {
        return new NoDone();
    }

    static InStreamError inStreamError(int afterChunks, String message) {
        return new InStreamError(afterChunks, message, "InternalServerError", 500);
    }

    /** Whether the response is a pure function of the request, so zero-latency plans may serve it from cache. */
    default boolean byteLevelOnly() {
        return switch (this) {
            case None n -> true;
            case InvalidJsonAt i -> true;
            case NoDone n -> true;
            case InStreamError e -> true;
            case HttpError h -> false;
            case ResetAfter r -> false;
            case StallAfter s -> false;
        };
    }

    private static void requireNonNegative(String field, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " (" + value + ") must be >= 0");
        }
    }
}
