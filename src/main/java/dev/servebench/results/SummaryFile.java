package dev.servebench.results;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.servebench.load.ClientUsage;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.ServingSummary;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * {@code <label>.summary.json}, the summary of one measured load point (format {@code servebench-summary/1}):
 * SGLang's result keys at the top level, so that a script written for {@code sglang.bench_serving}'s output
 * reads it unchanged, and servebench's own facts under {@code servebench} ({@link SummarySection}). Written by
 * the spec runner for every repeat of every point, read back by {@link #read}.
 *
 * @param maxConcurrency null when the point had no concurrency limit, as SGLang writes it
 * @param results        SGLang's metric keys ({@code output_throughput}, {@code p99_itl_ms}, …) with the values
 *                       measured, in {@link MetricId} order; a metric not measured is absent, never 0
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"format", "tag", "backend", "dataset_name", "request_rate", "max_concurrency",
        "random_input_len", "random_output_len", "random_range_ratio", "results", "servebench"})
public record SummaryFile(String format, String tag, String backend, String datasetName, RequestRate requestRate,
        @JsonInclude(JsonInclude.Include.ALWAYS) Integer maxConcurrency, int randomInputLen, int randomOutputLen,
        double randomRangeRatio, @JsonAnyGetter @JsonAnySetter Map<String, Number> results,
        SummarySection servebench) {

    public SummaryFile {
        format = FileFormat.SUMMARY.accept(format);
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(datasetName, "dataset_name");
        Objects.requireNonNull(requestRate, "request_rate");
        Objects.requireNonNull(servebench, "servebench");
        results = Collections.unmodifiableMap(inMetricOrder(results == null ? Map.of() : results));
    }

    /** SGLang's keys in {@link MetricId} order, then any this version does not know: one file, one byte order. */
    private static Map<String, Number> inMetricOrder(Map<String, Number> results) {
        Map<String, Number> ordered = new LinkedHashMap<>();
        for (MetricId id : MetricId.values()) {
            id.sglangKey().filter(results::containsKey).ifPresent(key -> ordered.put(key, results.get(key)));
        }
        results.forEach(ordered::putIfAbsent);
        return ordered;
    }

    /** The summary of one measured repeat of {@code point}. */
    public static SummaryFile of(RunDescription run, LoadPoint point, ServingSummary summary, ClientUsage client,
            PointContext context, Optional<RooflineJson> roofline) {
        Map<String, Number> results = new LinkedHashMap<>();
        for (MetricId id : MetricId.values()) {
            OptionalDouble value = summary.value(id);
            if (id.sglangKey().isPresent() && value.isPresent()) {
                results.put(id.sglangKey().get(), number(id, value.getAsDouble()));
            }
        }
        return new SummaryFile(FileFormat.SUMMARY.id(), run.tag(), run.backend(), run.datasetName(),
                new RequestRate(point.closedLoop() ? Double.POSITIVE_INFINITY : point.requestRate()),
                point.maxConcurrency() == 0 ? null : point.maxConcurrency(), run.randomInputLen(),
                run.randomOutputLen(), run.randomRangeRatio(), results,
                SummarySection.of(run, point, summary, client, context, roofline.orElse(null)));
    }

    /** A whole count as an integer (SGLang writes {@code "completed": 96}), anything else as a double. */
    static Number number(MetricId id, double value) {
        return id.wholeNumber() && value == Math.rint(value) ? (Number) (long) value : (Number) value;
    }

    /** One SGLang result value; empty when the run did not measure it. */
    public OptionalDouble result(String sglangKey) {
        Number value = results.get(sglangKey);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value.doubleValue());
    }

    public String text() {
        return FormatJson.text(this);
    }

    /** Writes atomically: a reader never sees half a summary. */
    public void write(Path file) throws IOException {
        FormatJson.write(file, this);
    }

    /**
     * @throws java.nio.file.NoSuchFileException no such file
     * @throws IllegalArgumentException          not a summary, a newer version, or a value refused; the message
     *                                           starts with the file
     */
    public static SummaryFile read(Path file) throws IOException {
        return FormatJson.read(file, FileFormat.SUMMARY, SummaryFile.class);
    }

    /**
     * Requests per second as SGLang writes it: a number, or the string {@code "inf"} for a closed loop (strict
     * JSON has no bare {@code Infinity}).
     */
    public record RequestRate(double perSecond) {
        public RequestRate {
            if (!(perSecond > 0)) {
                throw new IllegalArgumentException("request_rate (" + perSecond + ") must be > 0 or \"inf\"");
            }
        }

        @JsonCreator
        static RequestRate parse(Object value) {
            if (value instanceof Number n) {
                return new RequestRate(n.doubleValue());
            }
            if ("inf".equals(value)) {
                return new RequestRate(Double.POSITIVE_INFINITY);
            }
            throw new IllegalArgumentException("request_rate must be a number or \"inf\", found " + value);
        }

        @JsonValue
        Object json() {
            return Double.isInfinite(perSecond) ? "inf" : perSecond;
        }
    }
}
