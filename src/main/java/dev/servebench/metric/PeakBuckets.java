package dev.servebench.metric;

import java.util.Arrays;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * Peak metrics over 1-second buckets and vLLM's sweep line (§3 of serving-metrics.md). Float operations
 * follow the Python code step by step (sequential additions, {@code int()} truncation), because a token
 * time that lands a hair before a bucket edge moves a whole count from one bucket to the other.
 */
final class PeakBuckets {

    private PeakBuckets() {}

    /** {@code max_output_tokens_per_s}: most token events (first token + one per ITL entry) in one bucket. */
    static double peakTokenEvents(List<Timing> timings) {
        if (timings.isEmpty()) {
            return 0.0;
        }
        double t0 = minStart(timings);
        long buckets = bucketCount(timings, t0);
        int events = 0;
        for (Timing timing : timings) {
            events += 1 + timing.itl().length;
        }
        // Sorted bucket indices instead of numpy's dense array: same counts, but a run whose timestamps
        // span days (or a broken clock) cannot make us allocate one slot per second.
        long[] hits = new long[events];
        int[] n = {0};
        forEachTokenEventBucket(timings, t0, buckets, bucket -> hits[n[0]++] = bucket);
        return mostFrequent(hits, n[0]);
    }

    /**
     * Token events per bucket {@code int(t - t0)}, dense over [0, B): the counts whose maximum is
     * {@link #peakTokenEvents}.
     *
     * @throws IllegalArgumentException when the requests span more than {@code maxBuckets} seconds
     */
    static long[] tokenEventBuckets(List<Timing> timings, long maxBuckets) {
        if (timings.isEmpty()) {
            return new long[0];
        }
        double t0 = minStart(timings);
        long buckets = bucketCount(timings, t0);
        if (buckets > maxBuckets) {
            throw new IllegalArgumentException("requests span " + buckets + " s, more than the " + maxBuckets
                    + " 1-s buckets a timeline may hold; are the record times from one clock?");
        }
        long[] counts = new long[(int) buckets];
        forEachTokenEventBucket(timings, t0, buckets, bucket -> counts[(int) bucket]++);
        return counts;
    }

    /** Each token event's bucket in [0, B): start + ttft, then + each ITL entry by sequential addition. */
    private static void forEachTokenEventBucket(List<Timing> timings, double t0, long buckets,
            LongConsumer action) {
        for (Timing timing : timings) {
            double t = timing.start() + timing.ttft();
            hit(action, t, t0, buckets);
            for (double gap : timing.itl()) {
                t = t + gap;
                hit(action, t, t0, buckets);
            }
        }
    }

    private static double mostFrequent(long[] hits, int n) {
        Arrays.sort(hits, 0, n);
        long peak = 0;
        for (int i = 0, run; i < n; i += run) {
            run = 1;
            while (i + run < n && hits[i + run] == hits[i]) {
                run++;
            }
            peak = Math.max(peak, run);
        }
        return (double) peak;
    }

    /**
     * SGLang's {@code max_concurrent_requests}: a request adds 1 to every bucket from
     * {@code int(start - t0)} through {@code int(start + latency - t0)}, so touching a bucket for a
     * microsecond counts as being in flight during it.
     */
    static int peakConcurrentBuckets(List<Timing> timings) {
        if (timings.isEmpty()) {
            return 0;
        }
        double t0 = minStart(timings);
        long buckets = bucketCount(timings, t0);
        // Each request covers the bucket range [first, min(last + 1, B)); the peak of the per-bucket counts
        // is the peak of a running sum over range edges, ends applied before starts at the same bucket.
        long[] edges = new long[2 * timings.size()];
        int n = 0;
        for (Timing timing : timings) {
            long first = (long) (timing.start() - t0);
            long end = Math.min((long) ((timing.start() + timing.latency()) - t0) + 1, buckets);
            if (first < end) {
                edges[n++] = first * 2 + 1;
                edges[n++] = end * 2;
            }
        }
        Arrays.sort(edges, 0, n);
        int running = 0;
        int peak = 0;
        for (int i = 0; i < n; i++) {
            running += (edges[i] & 1) == 1 ? 1 : -1;
            peak = Math.max(peak, running);
        }
        return peak;
    }

    /**
     * vLLM's exact peak: running count over half-open intervals {@code [start, start + latency)}; at equal
     * times departures are applied before arrivals, so back-to-back requests do not overlap.
     */
    static int peakConcurrentSweep(List<Timing> timings) {
        int n = timings.size();
        double[] times = new double[2 * n];
        int[] deltas = new int[2 * n];
        Integer[] order = new Integer[2 * n];
        for (int i = 0; i < n; i++) {
            Timing timing = timings.get(i);
            times[2 * i] = timing.start();
            deltas[2 * i] = 1;
            times[2 * i + 1] = timing.start() + timing.latency();
            deltas[2 * i + 1] = -1;
        }
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> {
            // Python's float order: unlike Double.compare it treats -0.0 and 0.0 as equal.
            if (times[a] != times[b]) {
                return times[a] < times[b] ? -1 : 1;
            }
            return Integer.compare(deltas[a], deltas[b]);
        });
        int running = 0;
        int peak = 0;
        for (int event : order) {
            running += deltas[event];
            peak = Math.max(peak, running);
        }
        return peak;
    }

    private static double minStart(List<Timing> timings) {
        double min = Double.POSITIVE_INFINITY;
        for (Timing timing : timings) {
            min = Math.min(min, timing.start());
        }
        return min;
    }

    /** {@code int(np.ceil(t_end - t0)) + 1}, t_end being the latest {@code start + latency}. */
    private static long bucketCount(List<Timing> timings, double t0) {
        double end = Double.NEGATIVE_INFINITY;
        for (Timing timing : timings) {
            end = Math.max(end, timing.start() + timing.latency());
        }
        return (long) Math.ceil(end - t0) + 1;
    }

    /** Passes on the bucket {@code int(time - t0)} when it lies in [0, B). */
    private static void hit(LongConsumer action, double time, double t0, long buckets) {
        long bucket = (long) (time - t0);
        if (bucket >= 0 && bucket < buckets) {
            action.accept(bucket);
        }
    }
}
