package dev.servebench.metric;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Peak metrics over 1-second buckets and vLLM's sweep line (docs/reference-semantics.md, Peak metrics).
 * Float operations follow the Python code step by step (sequential additions, {@code int()} truncation), because a token
 * time that lands a hair before a bucket edge moves a whole count from one bucket to the other. Memory
 * grows with the number of buckets (or requests), never with the number of token events.
 */
final class PeakBuckets {

    /** Up to this many buckets are counted in an array; a longer span (a broken clock) in a map. */
    static final long DENSE_BUCKETS = TokenTimeline.MAX_BUCKETS;

    private PeakBuckets() {}

    /** {@code max_output_tokens_per_s}: most token events (first token + one per ITL entry) in one bucket. */
    static double peakTokenEvents(Population population) {
        if (population.completed() == 0) {
            return 0.0;
        }
        double t0 = minStart(population);
        long buckets = bucketCount(population, t0);
        if (buckets <= DENSE_BUCKETS) {
            long[] counts = new long[(int) buckets];
            population.forEachTokenEventTime(time -> {
                long bucket = bucket(time, t0, buckets);
                if (bucket >= 0) {
                    counts[(int) bucket]++;
                }
            });
            return (double) Arrays.stream(counts).max().orElse(0);
        }
        // Only the buckets that get hits, so that timestamps spanning years cannot make us allocate one
        // slot per second.
        Map<Long, long[]> counts = new HashMap<>();
        population.forEachTokenEventTime(time -> {
            long bucket = bucket(time, t0, buckets);
            if (bucket >= 0) {
                counts.computeIfAbsent(bucket, b -> new long[1])[0]++;
            }
        });
        return (double) counts.values().stream().mapToLong(count -> count[0]).max().orElse(0);
    }

    /**
     * Token events per bucket {@code int(t - t0)}, dense over [0, B): the counts whose maximum is
     * {@link #peakTokenEvents}.
     *
     * @throws IllegalArgumentException when the requests span more than {@code maxBuckets} seconds
     */
    static long[] tokenEventBuckets(Population population, long maxBuckets) {
        if (population.completed() == 0) {
            return new long[0];
        }
        double t0 = minStart(population);
        long buckets = bucketCount(population, t0);
        if (buckets > maxBuckets) {
            throw new IllegalArgumentException("requests span " + buckets + " s, more than the " + maxBuckets
                    + " 1-s buckets a timeline may hold; are the record times from one clock?");
        }
        long[] counts = new long[(int) buckets];
        population.forEachTokenEventTime(time -> {
            long bucket = bucket(time, t0, buckets);
            if (bucket >= 0) {
                counts[(int) bucket]++;
            }
        });
        return counts;
    }

    /**
     * SGLang's {@code max_concurrent_requests}: a request adds 1 to every bucket from
     * {@code int(start - t0)} through {@code int(start + latency - t0)}, so touching a bucket for a
     * microsecond counts as being in flight during it.
     */
    static int peakConcurrentBuckets(Population population) {
        int n = population.completed();
        if (n == 0) {
            return 0;
        }
        double t0 = minStart(population);
        long buckets = bucketCount(population, t0);
        // Each request covers the bucket range [first, min(last + 1, B)); the peak of the per-bucket counts
        // is the peak of a running sum over range edges, ends applied before starts at the same bucket.
        long[] edges = new long[2 * n];
        int count = 0;
        for (int i = 0; i < n; i++) {
            long first = (long) (population.start(i) - t0);
            long end = Math.min((long) ((population.start(i) + population.latency(i)) - t0) + 1, buckets);
            if (first < end) {
                edges[count++] = first * 2 + 1;
                edges[count++] = end * 2;
            }
        }
        Arrays.sort(edges, 0, count);
        int running = 0;
        int peak = 0;
        for (int i = 0; i < count; i++) {
            running += (edges[i] & 1) == 1 ? 1 : -1;
            peak = Math.max(peak, running);
        }
        return peak;
    }

    /**
     * vLLM's exact peak: running count over half-open intervals {@code [start, start + latency)}; at equal
     * times departures are applied before arrivals, so back-to-back requests do not overlap. vLLM sorts
     * (time, delta) pairs; merging the sorted starts with the sorted ends visits the same sequence.
     */
    static int peakConcurrentSweep(Population population) {
        int n = population.completed();
        double[] starts = new double[n];
        double[] ends = new double[n];
        for (int i = 0; i < n; i++) {
            starts[i] = population.start(i);
            ends[i] = population.start(i) + population.latency(i);
        }
        Arrays.sort(starts);
        Arrays.sort(ends);
        int running = 0;
        int peak = 0;
        int s = 0;
        for (int e = 0; e < n; ) {
            // Python's float order: <= treats -0.0 and 0.0 as equal, unlike Double.compare.
            if (s < n && !(ends[e] <= starts[s])) {
                running++;
                s++;
                peak = Math.max(peak, running);
            } else {
                running--;
                e++;
            }
        }
        return peak;
    }

    private static double minStart(Population population) {
        double min = Double.POSITIVE_INFINITY;
        for (int i = 0; i < population.completed(); i++) {
            min = Math.min(min, population.start(i));
        }
        return min;
    }

    /** {@code int(np.ceil(t_end - t0)) + 1}, t_end being the latest {@code start + latency}. */
    private static long bucketCount(Population population, double t0) {
        double end = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < population.completed(); i++) {
            end = Math.max(end, population.start(i) + population.latency(i));
        }
        return (long) Math.ceil(end - t0) + 1;
    }

    /** The bucket {@code int(time - t0)} when it lies in [0, B), otherwise -1. */
    private static long bucket(double time, double t0, long buckets) {
        long bucket = (long) (time - t0);
        return bucket >= 0 && bucket < buckets ? bucket : -1;
    }
}
