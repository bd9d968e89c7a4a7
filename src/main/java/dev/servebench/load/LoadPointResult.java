package dev.servebench.load;

import dev.servebench.record.RequestRecord;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The measured requests of one load point, in dispatch order, and its benchmark duration.
 *
 * @param records        every measured request (warmup excluded), sorted by index
 * @param durationNanos  benchmark duration: from the benchmark start (t = 0) to the end of the last
 *                       request, i.e. the maximum {@code endNanos} of the records
 * @param clientUsage    the client's own resource use
 * @param originNanos    the client clock's reading at the benchmark start (to line up other time series,
 *                       e.g. server metrics or GPU telemetry, with the records)
 * @param cut            present when the load point reached its time limit before every request ended
 */
public record LoadPointResult(List<RequestRecord> records, long durationNanos, ClientUsage clientUsage,
                              long originNanos, Optional<LoadPointCut> cut) {

    public LoadPointResult(List<RequestRecord> records, long durationNanos, ClientUsage clientUsage, long originNanos) {
        this(records, durationNanos, clientUsage, originNanos, Optional.empty());
    }

    public LoadPointResult {
        records = List.copyOf(records);
        Objects.requireNonNull(clientUsage, "clientUsage");
        Objects.requireNonNull(cut, "cut");
        if (durationNanos < 0) {
            throw new IllegalArgumentException("durationNanos (" + durationNanos + ") must be >= 0");
        }
    }

    /** The duration definition, applied to any set of records (also used when re-reading a records file). */
    public static long durationOf(List<RequestRecord> records) {
        long max = 0;
        for (RequestRecord r : records) {
            max = Math.max(max, r.endNanos());
        }
        return max;
    }
}
