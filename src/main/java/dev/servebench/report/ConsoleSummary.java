package dev.servebench.report;

import dev.servebench.results.RunDescription;
import dev.servebench.results.PointContext;

import dev.servebench.load.ClientUsage;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.LatencySeries;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.Origin;
import dev.servebench.metric.ServingSummary;
import dev.servebench.record.FailureKind;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The console summary of one load point. The first block reproduces SGLang's "Serving Benchmark Result"
 * layout and labels line for line (labels padded to 40, values to 10, two decimals rounded half-even): every
 * metric with an SGLang label, in {@link MetricId}'s order. The blocks after it are vLLM's variants and
 * servebench's own checks: the metrics that declare a console label ({@link MetricId#consoleLabel()}).
 */
public final class ConsoleSummary {

    private static final int RULE = 50;

    /** Every metric SGLang prints, in its order: the run's totals, then one section per latency series. */
    private static final List<MetricId> SGLANG = Arrays.stream(MetricId.values())
            .filter(m -> m.sglangLabel().isPresent()).toList();
    /** vLLM's variants and servebench's own lines: the metrics that declare a console label of their own. */
    private static final List<MetricId> VLLM = declaredLines(m -> m.origin() == Origin.VLLM);
    private static final List<MetricId> SERVEBENCH = declaredLines(m -> m.origin() != Origin.VLLM);

    private ConsoleSummary() {}

    public static String render(RunDescription run, LoadPoint point, ServingSummary s, ClientUsage client) {
        return render(run, point, s, client, java.util.Optional.empty());
    }

    /** With the point's validity first (an INVALID point says so before any number) and its context last. */
    public static String render(RunDescription run, LoadPoint point, ServingSummary s, ClientUsage client,
                                java.util.Optional<PointContext> context) {
        StringBuilder out = new StringBuilder("\n").append(center(" Serving Benchmark Result ", '=')).append('\n');
        context.filter(c -> !c.validity().valid()).ifPresent(c -> out.append("*** ").append(c.validity().describe())
                .append(": the numbers below do not describe the server ***\n"));
        context.flatMap(PointContext::cut).ifPresent(cut -> out.append("*** load point ").append(cut.describe())
                .append(" ***\n"));
        line(out, "Backend:", run.backend());
        line(out, "Traffic request rate:", point.closedLoop() ? "inf" : Decimal.fixed(point.requestRate(), 2));
        line(out, "Max request concurrency:", point.maxConcurrency() == 0 ? "not set" : Integer.toString(point.maxConcurrency()));
        SGLANG.stream().filter(id -> id.series().isEmpty()).forEach(id -> metric(out, s, id));
        Map<LatencySeries, List<MetricId>> sections = SGLANG.stream().filter(id -> id.series().isPresent())
                .collect(Collectors.groupingBy(id -> id.series().get(), LinkedHashMap::new, Collectors.toList()));
        sections.forEach((series, metrics) -> {
            out.append(center(series.consoleSection().orElseThrow(
                    () -> new IllegalStateException("SGLang prints no section for " + series)), '-')).append('\n');
            metrics.forEach(id -> metric(out, s, id));
        });
        out.append("=".repeat(RULE)).append('\n');
        appendVllm(out, s);
        appendServebench(out, run, s, client, context);
        return out.toString();
    }

    private static void appendVllm(StringBuilder out, ServingSummary s) {
        out.append(center("vLLM definitions (where they differ)", '-')).append('\n');
        VLLM.forEach(id -> metric(out, s, id));
    }

    private static void appendServebench(StringBuilder out, RunDescription run, ServingSummary s, ClientUsage client,
                                         java.util.Optional<PointContext> context) {
        out.append(center("servebench checks", '-')).append('\n');
        line(out, "Output token source:", s.tokenSource().name().toLowerCase(Locale.ROOT));
        line(out, "Prompts sent as:", run.tokenIdPrompts() ? "token ids (exact lengths)" : "text (lengths estimated)");
        line(out, "Input token source:", s.inputTokens().describe());
        line(out, "Retokenized output:", s.retokenized().describe());
        SERVEBENCH.forEach(id -> metric(out, s, id));
        line(out, run.embeddedInProcess() ? "Process CPU, client + engine (cores):" : "Client CPU (cores):",
                Decimal.fixed(client.coresUsed(), 2));
        line(out, "Client I/O transport:", client.ioTransport().label());
        for (Map.Entry<FailureKind, Integer> failure : s.failuresByKind().entrySet()) {
            if (failure.getValue() > 0) {
                line(out, "Failed (" + failure.getKey().name().toLowerCase(Locale.ROOT) + "):", failure.getValue().toString());
            }
        }
        context.ifPresent(c -> {
            line(out, "Validity:", c.validity().describe());
            line(out, "Connections opened (before/during):", c.connections().openedBeforeStart() + " / "
                    + c.connections().openedDuring());
            if (c.connections().staleRetries() + c.connections().staleSkipped() > 0) {
                line(out, "Stale connections (retried/skipped):", c.connections().staleRetries() + " / "
                        + c.connections().staleSkipped());
            }
        });
        for (String note : s.notes()) {
            out.append("Note: ").append(note).append('\n');
        }
        context.ifPresent(c -> c.notes().forEach(note -> out.append("Note: ").append(note).append('\n')));
        out.append("=".repeat(RULE)).append('\n');
    }

    private static List<MetricId> declaredLines(Predicate<MetricId> block) {
        return Arrays.stream(MetricId.values()).filter(m -> m.sglangLabel().isEmpty() && m.consoleLabel().isPresent())
                .filter(block).toList();
    }

    /** The metric's line, counts without decimals, others with two; none when the metric is absent. */
    private static void metric(StringBuilder out, ServingSummary s, MetricId id) {
        OptionalDouble v = s.value(id);
        if (v.isPresent()) {
            line(out, id.consoleLabel().orElseThrow(), id.wholeNumber() ? Long.toString(Math.round(v.getAsDouble()))
                    : Decimal.fixed(v.getAsDouble(), 2));
        }
    }

    private static void line(StringBuilder out, String label, String value) {
        out.append(String.format(Locale.ROOT, "%-40s %-10s", label, value)).append('\n');
    }

    /** Python's {@code str.center(50, fill)}: the extra fill character of an odd padding goes right. */
    static String center(String text, char fill) {
        int pad = Math.max(0, RULE - text.length());
        int left = pad / 2;
        return String.valueOf(fill).repeat(left) + text + String.valueOf(fill).repeat(pad - left);
    }
}
