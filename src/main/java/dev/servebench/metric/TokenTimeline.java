package dev.servebench.metric;

import dev.servebench.record.RequestRecord;
import java.util.List;

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
        List<Timing> timings = records.stream().filter(RequestRecord::succeeded).map(Timing::sglang).toList();
        return PeakBuckets.tokenEventBuckets(timings, MAX_BUCKETS);
    }
}
