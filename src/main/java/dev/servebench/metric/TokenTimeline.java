package dev.servebench.metric;

import dev.servebench.record.RecordCursor;
import dev.servebench.record.RecordStore;
import dev.servebench.record.RequestRecord;
import java.util.List;
import java.util.stream.IntStream;

/**
 * Output token events per 1-second bucket of one load point, counted as {@code peak_output_throughput}
 * counts them (SGLang's {@code max_output_tokens_per_s}: buckets from the earliest successful start, one event
 * for the first token and one per ITL entry). The largest bucket is that metric, so a report can draw the
 * burst next to the sustained {@code output_throughput} it is easily mistaken for. Pure.
 */
public final class TokenTimeline {

    /** A week of seconds: any longer span comes from a broken clock, not from one load point. */
    static final long MAX_BUCKETS = 7L * 24 * 3600;

    private TokenTimeline() {
    }

    /** Counts per bucket, bucket 0 starting at the earliest successful request's start; empty without successes. */
    public static long[] tokenEventsPerSecond(List<RequestRecord> records) {
        try (RecordStore store = RecordStore.of(records)) {
            return tokenEventsPerSecond(store);
        }
    }

    /** {@link #tokenEventsPerSecond(List)} of stored records, read request by request. */
    public static long[] tokenEventsPerSecond(RecordStore records) {
        // Bucket counts do not depend on the order of the requests: slot order will do.
        RecordCursor cursor = records.cursor();
        int[] successes = IntStream.range(0, records.size()).filter(slot -> cursor.moveTo(slot).succeeded()).toArray();
        Population population = new Population(records, successes, Population.Tool.SGLANG, TokenSource.CHUNK_COUNT,
                RankSelect.Limits.DEFAULT);
        return PeakBuckets.tokenEventBuckets(population, MAX_BUCKETS);
    }
}
