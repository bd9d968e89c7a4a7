package dev.servebench.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.load.ClientUsage;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.ServingSummary;
import dev.servebench.record.FailureKind;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The summary file of one load point: SGLang's result keys at the top level (strict JSON: an infinite
 * request rate is the string {@code "inf"}, never a bare {@code Infinity}), and under {@code servebench}
 * every metric with its unit, direction, origin, formula and token basis (and, where its input count is an
 * estimate, why). Written atomically.
 */
public final class SummaryJson {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private SummaryJson() {}

    public static ObjectNode toJson(RunDescription run, LoadPoint point, ServingSummary s, ClientUsage client) {
        return toJson(run, point, s, client, java.util.Optional.empty());
    }

    /** With the point's validity, cut, connections, warm-up and run notes under {@code servebench}. */
    public static ObjectNode toJson(RunDescription run, LoadPoint point, ServingSummary s, ClientUsage client,
                                    java.util.Optional<PointContext> context) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("tag", run.tag());
        root.put("backend", run.backend());
        root.put("dataset_name", run.datasetName());
        if (point.closedLoop()) {
            root.put("request_rate", "inf");
        } else {
            root.put("request_rate", point.requestRate());
        }
        if (point.maxConcurrency() == 0) {
            root.putNull("max_concurrency");
        } else {
            root.put("max_concurrency", point.maxConcurrency());
        }
        root.put("random_input_len", run.randomInputLen());
        root.put("random_output_len", run.randomOutputLen());
        root.put("random_range_ratio", run.randomRangeRatio());
        for (MetricId id : MetricId.values()) {
            OptionalDouble value = s.value(id);
            if (id.sglangKey().isPresent() && value.isPresent()) {
                putNumber(root, id.sglangKey().get(), id, value.getAsDouble());
            }
        }
        ObjectNode ours = servebench(run, point, s, client);
        context.ifPresent(c -> addContext(ours, c));
        root.set("servebench", ours);
        return root;
    }

    private static ObjectNode servebench(RunDescription run, LoadPoint point, ServingSummary s, ClientUsage client) {
        ObjectNode ours = MAPPER.createObjectNode();
        ObjectNode load = ours.putObject("load_point");
        load.put("label", point.label());
        load.put("description", point.describe());
        load.put("max_concurrency", point.maxConcurrency());
        load.put("request_rate", point.closedLoop() ? "inf" : Double.toString(point.requestRate()));
        load.put("burstiness", point.burstiness());
        ObjectNode runNode = ours.putObject("run");
        runNode.put("base_url", run.baseUrl());
        runNode.put("model", run.model());
        runNode.put("num_prompts", run.numPrompts());
        runNode.put("seed", run.seed());
        runNode.put("prompts", run.tokenIdPrompts() ? "token_ids" : "text");
        runNode.put("target", run.target());
        ours.put("token_source", s.tokenSource().name().toLowerCase(Locale.ROOT));
        ours.put("requests", s.requests());
        ours.put("benchmark_duration_ns", s.benchmarkDurationNanos());
        ours.put("token_source_fallbacks", s.tokenSourceFallbacks());
        ours.put("input_token_source", s.inputTokens().source().name().toLowerCase(Locale.ROOT));
        ours.put("input_token_source_fallbacks", s.inputTokens().fallbacks());
        ours.put("prompt_lengths", s.inputTokens().datasetLengths().name().toLowerCase(Locale.ROOT));
        ours.put("input_tokens", s.inputTokens().describe());
        ours.put("successes_without_event", s.successesWithoutEvent());
        // Absent metrics are not 0: this says whether the retokenized ones were measured at all.
        ours.put("retokenized_output", s.retokenized().describe());
        ObjectNode failures = ours.putObject("failures_by_kind");
        for (Map.Entry<FailureKind, Integer> e : s.failuresByKind().entrySet()) {
            failures.put(e.getKey().name().toLowerCase(Locale.ROOT), e.getValue());
        }
        ObjectNode clientNode = ours.putObject("client");
        clientNode.put("cpu_cores", client.coresUsed());
        clientNode.put("cpu_includes_embedded_engine", run.embeddedInProcess());
        clientNode.put("cpu_ns", client.cpuNanos());
        clientNode.put("busiest_event_loop_busy", client.busiestEventLoopBusy());
        clientNode.put("wall_ns", client.wallNanos());
        clientNode.put("bytes_received", client.bytesReceived());
        clientNode.put("events_received", client.eventsReceived());
        ours.set("metrics", metrics(s));
        var notes = ours.putArray("notes");
        s.notes().forEach(notes::add);
        return ours;
    }

    private static void addContext(ObjectNode ours, PointContext context) {
        ObjectNode validity = ours.putObject("validity");
        validity.put("valid", context.validity().valid());
        validity.put("success_rate", context.validity().rate());
        validity.put("min_success_rate", context.validity().threshold());
        validity.put("succeeded", context.validity().succeeded());
        validity.put("judged", context.validity().judged());
        validity.put("description", context.validity().describe());
        context.cut().ifPresentOrElse(cut -> {
            ObjectNode c = ours.putObject("cut");
            c.put("limit_s", cut.limit().toMillis() / 1000.0);
            c.put("not_sent", cut.notSent());
            c.put("cancelled", cut.cancelled());
            c.put("description", cut.describe());
        }, () -> ours.putNull("cut"));
        ObjectNode client = (ObjectNode) ours.get("client");
        client.put("connections_opened_before_start", context.connections().openedBeforeStart());
        client.put("connections_opened_during", context.connections().openedDuring());
        client.put("stale_connection_retries", context.connections().staleRetries());
        client.put("stale_connections_skipped", context.connections().staleSkipped());
        var warmed = client.putArray("warmed_before_start");
        context.warmed().forEach(warmed::add);
        var notes = (com.fasterxml.jackson.databind.node.ArrayNode) ours.get("notes");
        context.cut().ifPresent(cut -> notes.add("load point " + cut.describe()));
        context.notes().forEach(notes::add);
        if (!context.validity().valid()) {
            notes.insert(0, context.validity().describe() + ": the numbers below do not describe the server");
        }
    }

    /** Every applicable metric with its value, unit, direction, origin, formula and token basis. */
    public static ObjectNode metrics(ServingSummary s) {
        ObjectNode metrics = MAPPER.createObjectNode();
        for (MetricId id : MetricId.values()) {
            OptionalDouble value = s.value(id);
            if (value.isEmpty()) {
                continue;
            }
            ObjectNode m = metrics.putObject(id.id());
            putNumber(m, "value", id, value.getAsDouble());
            m.put("unit", id.unit().symbol());
            m.put("direction", id.direction().name().toLowerCase(Locale.ROOT));
            m.put("origin", id.origin().name().toLowerCase(Locale.ROOT));
            // Input metrics follow the run's input token source: the file says what was counted in this run.
            m.put("formula", s.formula(id));
            m.put("token_basis", s.tokenBasis(id).name().toLowerCase(Locale.ROOT));
            s.estimate(id).ifPresent(note -> m.put("estimate", note));
        }
        return metrics;
    }

    public static String pretty(ObjectNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void putNumber(ObjectNode node, String key, MetricId id, double value) {
        if (id.wholeNumber() && value == Math.rint(value)) {
            node.put(key, (long) value);
        } else {
            node.put(key, value);
        }
    }

    /** Writes to a temporary file beside {@code file}, then renames it into place. */
    public static void write(Path file, RunDescription run, LoadPoint point, ServingSummary s, ClientUsage client)
            throws IOException {
        AtomicFiles.write(file, MAPPER.writeValueAsBytes(toJson(run, point, s, client)));
    }

    public static void write(Path file, RunDescription run, LoadPoint point, ServingSummary s, ClientUsage client,
                             PointContext context) throws IOException {
        AtomicFiles.write(file, MAPPER.writeValueAsBytes(toJson(run, point, s, client, java.util.Optional.of(context))));
    }
}
