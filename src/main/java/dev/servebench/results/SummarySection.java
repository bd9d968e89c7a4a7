package dev.servebench.results;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.servebench.load.ClientUsage;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.ServingSummary;
import dev.servebench.record.FailureKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The {@code servebench} section of a summary file ({@link SummaryFile}): the load point and run as servebench
 * describes them, where the token counts came from, failures by kind, what the client used and did, every
 * measured metric with its definition, notes, the point's validity, its time-limit cut ({@code null} when it
 * was not cut) and, for a spec with a deployment, its speed-of-light bound.
 *
 * @param metrics by metric id, in {@link MetricId} order; a metric not measured is absent
 * @param notes   the first is the invalidity warning when the point is INVALID
 * @param cut     null when the point ran to its end
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"load_point", "run", "token_source", "requests", "benchmark_duration_ns",
        "token_source_fallbacks", "input_token_source", "input_token_source_fallbacks", "prompt_lengths",
        "input_tokens", "successes_without_event", "retokenized_output", "failures_by_kind", "client", "metrics",
        "notes", "validity", "cut", "roofline"})
public record SummarySection(LoadPointPart loadPoint, RunPart run, String tokenSource, int requests,
        long benchmarkDurationNs, int tokenSourceFallbacks, String inputTokenSource, int inputTokenSourceFallbacks,
        String promptLengths, String inputTokens, int successesWithoutEvent, String retokenizedOutput,
        Map<String, Integer> failuresByKind, ClientPart client, Map<String, MetricEntry> metrics,
        List<String> notes, Validity validity, @JsonInclude(JsonInclude.Include.ALWAYS) Cut cut,
        @JsonInclude(JsonInclude.Include.NON_NULL) RooflineJson roofline) {

    public SummarySection {
        Objects.requireNonNull(loadPoint, "servebench.load_point");
        Objects.requireNonNull(run, "servebench.run");
        Objects.requireNonNull(tokenSource, "servebench.token_source");
        Objects.requireNonNull(client, "servebench.client");
        Objects.requireNonNull(validity, "servebench.validity");
        failuresByKind = Collections.unmodifiableMap(new LinkedHashMap<>(orEmpty(failuresByKind)));
        metrics = Collections.unmodifiableMap(new LinkedHashMap<>(orEmpty(metrics)));
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    private static <K, V> Map<K, V> orEmpty(Map<K, V> map) {
        return map == null ? Map.of() : map;
    }

    static SummarySection of(RunDescription run, LoadPoint point, ServingSummary s, ClientUsage client,
            PointContext context, RooflineJson roofline) {
        Map<String, Integer> failures = new LinkedHashMap<>();
        s.failuresByKind().forEach((kind, count) -> failures.put(lower(kind), count));
        List<String> notes = new ArrayList<>(s.notes());
        context.cut().ifPresent(cut -> notes.add("load point " + cut.describe()));
        notes.addAll(context.notes());
        if (!context.validity().valid()) {
            notes.addFirst(context.validity().describe() + ": the numbers below do not describe the server");
        }
        SuccessShare share = context.validity();
        return new SummarySection(
                new LoadPointPart(point.label(), point.describe(), point.maxConcurrency(),
                        point.closedLoop() ? "inf" : Double.toString(point.requestRate()), point.burstiness()),
                new RunPart(run.baseUrl(), run.model(), run.numPrompts(), run.seed(),
                        run.tokenIdPrompts() ? "token_ids" : "text", run.target()),
                lower(s.tokenSource()), s.requests(), s.benchmarkDurationNanos(), s.tokenSourceFallbacks(),
                lower(s.inputTokens().source()), s.inputTokens().fallbacks(), lower(s.inputTokens().datasetLengths()),
                s.inputTokens().describe(), s.successesWithoutEvent(),
                // Absent metrics are not 0: this says whether the retokenized ones were measured at all.
                s.retokenized().describe(), failures,
                new ClientPart(client.coresUsed(), run.embeddedInProcess(), client.cpuNanos(),
                        client.busiestEventLoopBusy(), client.wallNanos(), client.bytesReceived(),
                        client.eventsReceived(), context.connections().openedBeforeStart(),
                        context.connections().openedDuring(), context.connections().staleRetries(),
                        context.connections().staleSkipped(), context.warmed(), client.ioTransport().label()),
                metrics(s), notes,
                new Validity(share.valid(), share.rate(), share.threshold(), share.succeeded(), share.judged(),
                        share.describe()),
                context.cut().map(cut -> new Cut(cut.limit().toMillis() / 1000.0, cut.notSent(), cut.cancelled(),
                        cut.describe())).orElse(null),
                roofline);
    }

    /** Every measured metric with its value and definition, in {@link MetricId} order. */
    public static Map<String, MetricEntry> metrics(ServingSummary s) {
        Map<String, MetricEntry> metrics = new LinkedHashMap<>();
        for (MetricId id : MetricId.values()) {
            OptionalDouble value = s.value(id);
            if (value.isPresent()) {
                // Input metrics follow the run's input token source: the file says what was counted in this run.
                metrics.put(id.id(), new MetricEntry(SummaryFile.number(id, value.getAsDouble()), id.unit().symbol(),
                        lower(id.direction()), lower(id.origin()), s.formula(id), lower(s.tokenBasis(id)),
                        s.estimate(id).orElse(null)));
            }
        }
        return metrics;
    }

    /** A metric's value, or empty when this summary does not have it. */
    public OptionalDouble metric(String id) {
        MetricEntry entry = metrics.get(id);
        return entry == null ? OptionalDouble.empty() : OptionalDouble.of(entry.value().doubleValue());
    }

    private static String lower(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT);
    }

    /** @param requestRate {@code "inf"} or the rate in requests per second */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"label", "description", "max_concurrency", "request_rate", "burstiness"})
    public record LoadPointPart(String label, String description, int maxConcurrency, String requestRate,
            double burstiness) {
    }

    /** @param prompts {@code token_ids} or {@code text} */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"base_url", "model", "num_prompts", "seed", "prompts", "target"})
    public record RunPart(String baseUrl, String model, int numPrompts, long seed, String prompts, String target) {
    }

    /**
     * @param cpuIncludesEmbeddedEngine true when the engine ran in the client's process, so its CPU is in
     *                                  {@code cpu_ns}
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"cpu_cores", "cpu_includes_embedded_engine", "cpu_ns", "busiest_event_loop_busy", "wall_ns",
            "bytes_received", "events_received", "connections_opened_before_start", "connections_opened_during",
            "stale_connection_retries", "stale_connections_skipped", "warmed_before_start", "io_transport"})
    public record ClientPart(double cpuCores, boolean cpuIncludesEmbeddedEngine, long cpuNs,
            double busiestEventLoopBusy, long wallNs, long bytesReceived, long eventsReceived,
            long connectionsOpenedBeforeStart, long connectionsOpenedDuring, long staleConnectionRetries,
            long staleConnectionsSkipped, List<String> warmedBeforeStart, String ioTransport) {
        public ClientPart {
            warmedBeforeStart = warmedBeforeStart == null ? List.of() : List.copyOf(warmedBeforeStart);
        }
    }

    /** @param estimate why the value is an estimate; null when it is counted */
    @JsonPropertyOrder({"value", "unit", "direction", "origin", "formula", "token_basis", "estimate"})
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MetricEntry(Number value, String unit, String direction, String origin, String formula,
            String tokenBasis, String estimate) {
        public MetricEntry {
            Objects.requireNonNull(value, "value");
        }
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"valid", "success_rate", "min_success_rate", "succeeded", "judged", "description"})
    public record Validity(boolean valid, double successRate, double minSuccessRate, int succeeded, int judged,
            String description) {
    }

    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"limit_s", "not_sent", "cancelled", "description"})
    public record Cut(double limitS, int notSent, int cancelled, String description) {
    }
}
