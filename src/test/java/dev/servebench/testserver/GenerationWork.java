package dev.servebench.testserver;

import java.util.Objects;

/**
 * A parsed generation request waiting for, or being given, its answer.
 *
 * @param startNanos when handling began (0 while still queued behind a pipelined predecessor)
 * @param framing    how the response is framed; {@code framing.closes()}: the connection ends after it
 */
record GenerationWork(long index, long arrivalNanos, long startNanos, ApiRequest request, Plan plan,
                      HttpWire.Framing framing) {

    GenerationWork {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(framing, "framing");
        if (index < 0) {
            throw new IllegalArgumentException("index (" + index + ") must be >= 0");
        }
    }

    GenerationWork startedAt(long nanos) {
        return new GenerationWork(index, arrivalNanos, nanos, request, plan, framing);
    }
}
