package dev.servebench.record;

import java.util.Objects;

/** How a request ended. Exactly one of {@link Success} or {@link Failure}. */
public sealed interface Outcome {

    /** HTTP 200 and the stream was read to its end ({@code [DONE]} or a clean end of a non-streamed body). */
    record Success() implements Outcome {}

    /**
     * The request did not complete.
     *
     * @param kind       what class of fault
     * @param reason     human-readable detail (never contains credentials)
     * @param httpStatus HTTP status when a response line arrived, otherwise 0
     */
    record Failure(FailureKind kind, String reason, int httpStatus) implements Outcome {
        public Failure {
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(reason, "reason");
            if (httpStatus < 0 || httpStatus > 999) {
                throw new IllegalArgumentException("httpStatus (" + httpStatus + ") must be 0 (none) or an HTTP status code");
            }
        }
    }

    Success SUCCESS = new Success();

    static Failure failure(FailureKind kind, String reason) {
        return new Failure(kind, reason, 0);
    }

    default boolean succeeded() {
        return this instanceof Success;
    }
}
