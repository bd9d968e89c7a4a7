package dev.servebench.testserver;

import java.util.Arrays;
import java.util.Objects;

/**
 * The server's own record of one generation request: when it arrived and when each token chunk was handed to
 * the socket ({@code System.nanoTime()} taken right after the write+flush returned). This is the "truth" a test
 * in the same JVM compares a client's measured arrival times against. Arrays are copied in and out.
 *
 * @param requestIndex 0-based arrival index among generation requests (what {@link Script#byIndex()} sees)
 * @param arrivalNanos when the request was decoded
 * @param startNanos   when handling began, the base of all due times; later than arrival for a pipelined
 *                     request that waited for the one before it
 * @param ttftNanos    the plan's TTFT
 * @param gapNanos     the plan's gap between token chunks
 * @param chunkNanos   emission time per token chunk actually sent (a non-streaming answer counts as one chunk);
 *                     for a cached full-speed response all chunks share the time of its single write
 * @param chunkTokens  tokens per sent chunk
 * @param plannedChunks token chunks the response would have had without faults
 * @param cached       served from the pre-rendered cache
 * @param promptTokens the request's prompt length as the server counted it (lets a benchmark pair a client's
 *                     record with this log by giving every request its own prompt length)
 */
public record EmissionLog(long requestIndex, Endpoint endpoint, long arrivalNanos, long startNanos, long ttftNanos,
                          long gapNanos, long[] chunkNanos, int[] chunkTokens, int plannedChunks, Outcome outcome,
                          boolean cached, int promptTokens) {

    /** How the response ended. */
    public enum Outcome {
        COMPLETED,
        /** Reset by a {@link Fault.ResetAfter}. */
        RESET,
        /** Stopped by a {@link Fault.StallAfter}; the connection was left open. */
        STALLED,
        /** The client (or server shutdown) closed the connection before the response was complete. */
        CLOSED_EARLY,
        /** Answered with a {@link Fault.HttpError}. */
        HTTP_ERROR
    }

    public EmissionLog {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(outcome, "outcome");
        if (chunkNanos.length != chunkTokens.length) {
            throw new IllegalArgumentException("chunkNanos (" + chunkNanos.length + " entries) and chunkTokens ("
                    + chunkTokens.length + " entries) must have the same length");
        }
        chunkNanos = chunkNanos.clone();
        chunkTokens = chunkTokens.clone();
    }

    @Override
    public long[] chunkNanos() {
        return chunkNanos.clone();
    }

    @Override
    public int[] chunkTokens() {
        return chunkTokens.clone();
    }

    /** Token chunks actually sent. */
    public int chunkCount() {
        return chunkNanos.length;
    }

    public long emissionNanos(int chunk) {
        return chunkNanos[chunk];
    }

    /** When token chunk {@code chunk} of a stream was due: start + TTFT + chunk * gap. */
    public long dueNanos(int chunk) {
        return startNanos + ttftNanos + chunk * gapNanos;
    }

    /** Emission minus due time of a streamed chunk: the server's own scheduling error. */
    public long latenessNanos(int chunk) {
        return chunkNanos[chunk] - dueNanos(chunk);
    }

    /** Time from arrival to the first chunk, or -1 if none was sent. */
    public long ttftObservedNanos() {
        return chunkNanos.length == 0 ? -1 : chunkNanos[0] - arrivalNanos;
    }

    /** Gaps between consecutive emitted chunks (length {@code chunkCount() - 1}, or 0). */
    public long[] gapsNanos() {
        if (chunkNanos.length < 2) {
            return new long[0];
        }
        long[] gaps = new long[chunkNanos.length - 1];
        for (int i = 1; i < chunkNanos.length; i++) {
            gaps[i - 1] = chunkNanos[i] - chunkNanos[i - 1];
        }
        return gaps;
    }

    public long totalTokens() {
        return Arrays.stream(chunkTokens).asLongStream().sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EmissionLog other && requestIndex == other.requestIndex && endpoint == other.endpoint
                && arrivalNanos == other.arrivalNanos && startNanos == other.startNanos
                && ttftNanos == other.ttftNanos && gapNanos == other.gapNanos
                && Arrays.equals(chunkNanos, other.chunkNanos) && Arrays.equals(chunkTokens, other.chunkTokens)
                && plannedChunks == other.plannedChunks && outcome == other.outcome && cached == other.cached;
    }

    @Override
    public int hashCode() {
        return Objects.hash(requestIndex, endpoint, arrivalNanos, startNanos, Arrays.hashCode(chunkNanos),
                Arrays.hashCode(chunkTokens), outcome);
    }

    @Override
    public String toString() {
        return "EmissionLog[request " + requestIndex + " " + endpoint + ", " + chunkNanos.length + "/"
                + plannedChunks + " chunks, " + totalTokens() + " tokens, " + outcome + (cached ? ", cached]" : "]");
    }
}
