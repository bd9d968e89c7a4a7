package dev.servebench.testserver;

import java.util.Objects;

/**
 * A parsed generation request waiting for, or being given, its answer.
 *
 * @param startNanos when handling began (0 while still queued behind a pipelined predecessor)
 * @param close      the client asked for the connection to close after this response
 */
record GenerationWork(long index, long arrivalNanos, long startNanos, ApiRequest request, Plan plan,
                      boolean close) {

    GenerationWork {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(plan, "plan");
        if (index < 0) {
            throw new IllegalArgumentException("index (" + index + ") must be >= 0");
        }
    }

    GenerationWork startedAt(long nanos) {
        return new GenerationWork(index, arrivalNanos, nanos, request, plan, close);
    }
}
