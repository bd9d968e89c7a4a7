package dev.servebench.report.html;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One measured load point: each metric over its repeats, and what one repeat's records show in detail.
 *
 * @param point     the point as specs name it, e.g. {@code concurrency=8}
 * @param requested measured requests sent per repeat
 * @param repeats   number of repeats measured
 * @param metrics   median, min and max over repeats of every metric the repeats reported
 * @param records   timeline and distributions of the representative repeat, or why they are missing
 * @param roofline  the speed-of-light bound, when the spec has model: and hardware:
 * @param energy    the GPUs' energy over the last repeat, when they were sampled
 */
public record LoadPointView(String point, boolean valid, int requested, int repeats, Map<MetricId, Spread> metrics,
        Input<RepeatRecords> records, Optional<RooflineView> roofline, Optional<RooflineView.Energy> energy) {

    public LoadPointView(String point, boolean valid, int requested, int repeats, Map<MetricId, Spread> metrics,
            Input<RepeatRecords> records) {
        this(point, valid, requested, repeats, metrics, records, Optional.empty(), Optional.empty());
    }

    public LoadPointView {
        Objects.requireNonNull(roofline, "roofline");
        Objects.requireNonNull(energy, "energy");
        LoadPointKey.parse(point);
        if (requested < 0 || repeats < 1) {
            throw new IllegalArgumentException(point + ": requested (" + requested + ") must be >= 0 and repeats ("
                    + repeats + ") >= 1");
        }
        metrics = Collections.unmodifiableMap(metrics.isEmpty() ? new EnumMap<>(MetricId.class) : new EnumMap<>(metrics));
        Objects.requireNonNull(records, "records");
    }

    public Optional<Spread> metric(MetricId id) {
        return Optional.ofNullable(metrics.get(id));
    }

    /** A closed-loop point with a concurrency cap, which a chart can place by its concurrency alone. */
    public boolean concurrencyOnly() {
        LoadPointKey key = LoadPointKey.parse(point);
        return key.capped() && key.closedLoop();
    }

    /** A metric over repeats: the median expectations judge, and the range the repeats spanned. */
    public record Spread(double median, double min, double max) {
        public Spread {
            if (!(min <= median && median <= max)) {
                throw new IllegalArgumentException("spread needs min <= median <= max, got " + min + ", " + median
                        + ", " + max);
            }
        }

        public static Spread of(double... values) {
            if (values.length == 0) {
                throw new IllegalArgumentException("a spread needs at least one value");
            }
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (double value : values) {
                min = Math.min(min, value);
                max = Math.max(max, value);
            }
            return new Spread(dev.servebench.metric.NumpyStats.median(values), min, max);
        }
    }

    /**
     * Detail from one repeat's records, computed in Java so the page never holds raw records.
     *
     * @param source               which repeat and why, e.g. "repeat 2 of 3 (median output_throughput)"
     * @param file                 the records file read, e.g. concurrency-8.r2.records.jsonl
     * @param tokenEventsPerSecond output token events per 1-s bucket from the first successful start
     * @param ttftMs               SGLang TTFT percentiles of the successful requests
     * @param itlMs                SGLang ITL percentiles of every inter-token gap
     */
    public record RepeatRecords(String source, String file, long[] tokenEventsPerSecond, Percentiles ttftMs,
            Percentiles itlMs) {
        public RepeatRecords {
            if (source == null || source.isBlank() || file == null || file.isBlank()) {
                throw new IllegalArgumentException("records need a source and a file");
            }
            tokenEventsPerSecond = tokenEventsPerSecond.clone();
            Objects.requireNonNull(ttftMs, "ttftMs");
            Objects.requireNonNull(itlMs, "itlMs");
        }

        @Override
        public long[] tokenEventsPerSecond() {
            return tokenEventsPerSecond.clone();
        }
    }
}
