package dev.servebench.load;

import dev.servebench.record.RecordStore;
import dev.servebench.record.RequestRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The measured requests of one load point and its benchmark duration. Owns the store: close the result
 * once its summary is computed, which releases the store's spill file.
 *
 * @param store          every measured request (warmup excluded), in completion order
 * @param durationNanos  benchmark duration: from the benchmark start (t = 0) to the end of the last
 *                       request, i.e. the maximum {@code endNanos} of the records
 * @param clientUsage    the client's own resource use
 * @param originNanos    the client clock's reading at the benchmark start (to line up other time series,
 *                       e.g. server metrics or GPU telemetry, with the records)
 * @param cut            present when the load point reached its time limit before every request ended
 */
public record LoadPointResult(RecordStore store, long durationNanos, ClientUsage clientUsage, long originNanos,
                              Optional<LoadPointCut> cut) implements AutoCloseable {

    public LoadPointResult(RecordStore store, long durationNanos, ClientUsage clientUsage, long originNanos) {
        this(store, durationNanos, clientUsage, originNanos, Optional.empty());
    }

    public LoadPointResult {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(clientUsage, "clientUsage");
        Objects.requireNonNull(cut, "cut");
        if (durationNanos < 0) {
            throw new IllegalArgumentException("durationNanos (" + durationNanos + ") must be >= 0");
        }
    }

    /**
     * Every record rebuilt, sorted by index. Materialises the whole load point, and a failure carries the
     * first reason of its kind (the records file keeps every reason): for tests and small runs.
     */
    public List<RequestRecord> records() {
        return store.toList();
    }

    /** The duration definition, applied to any set of records (also used when re-reading a records file). */
    public static long durationOf(List<RequestRecord> records) {
        long max = 0;
        for (RequestRecord r : records) {
            max = Math.max(max, r.endNanos());
        }
        return max;
    }

    @Override
    public void close() {
        store.close();
    }
}
