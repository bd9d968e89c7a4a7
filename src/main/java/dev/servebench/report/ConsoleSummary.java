package dev.servebench.report;

import dev.servebench.results.RunDescription;
import dev.servebench.results.PointContext;

import static dev.servebench.metric.MetricId.*;

import dev.servebench.load.ClientUsage;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.Unit;
import dev.servebench.record.FailureKind;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * The console summary of one load point. The first block reproduces SGLang's "Serving Benchmark Result"
 * layout and labels line for line (labels padded to 40, values to 10, two decimals rounded half-even);
 * the blocks after it are vLLM's variants and servebench's own checks, each label naming its metric.
 */
public final class ConsoleSummary {

    private static final int RULE = 50;

    private static final List<Section> SGLANG = List.of(
            new Section("End-to-End Latency", List.of(MEAN_E2E_LATENCY_MS, MEDIAN_E2E_LATENCY_MS, P90_E2E_LATENCY_MS,
                    P95_E2E_LATENCY_MS, P99_E2E_LATENCY_MS)),
            new Section("Time to First Token", List.of(MEAN_TTFT_MS, MEDIAN_TTFT_MS, P90_TTFT_MS, P95_TTFT_MS, P99_TTFT_MS)),
            new Section("Time per Output Token (excl. 1st token)", List.of(MEAN_TPOT_MS, MEDIAN_TPOT_MS, P90_TPOT_MS,
                    P95_TPOT_MS, P99_TPOT_MS)),
            new Section("Inter-Token Latency", List.of(MEAN_ITL_MS, MEDIAN_ITL_MS, P90_ITL_MS, P95_ITL_MS, P99_ITL_MS,
                    MAX_ITL_MS)));

    private record Section(String title, List<MetricId> metrics) {}

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
        integer(out, s, COMPLETED);
        value(out, s, BENCHMARK_DURATION);
        integer(out, s, TOTAL_INPUT_TOKENS);
        integer(out, s, TOTAL_OUTPUT_TOKENS);
        integer(out, s, TOTAL_OUTPUT_TOKENS_RETOKENIZED);
        for (MetricId id : List.of(REQUEST_THROUGHPUT, INPUT_THROUGHPUT, OUTPUT_THROUGHPUT)) {
            value(out, s, id);
        }
        // SGLang computes it without printing it; shown beside the output throughput when measured.
        value(out, s, OUTPUT_THROUGHPUT_RETOKENIZED, "Retokenized output throughput (tok/s):");
        value(out, s, PEAK_OUTPUT_THROUGHPUT);
        integer(out, s, PEAK_CONCURRENT_REQUESTS);
        value(out, s, TOTAL_THROUGHPUT);
        value(out, s, CONCURRENCY);
        for (Section section : SGLANG) {
            out.append(center(section.title(), '-')).append('\n');
            section.metrics().forEach(id -> value(out, s, id));
        }
        out.append("=".repeat(RULE)).append('\n');
        appendVllm(out, s);
        appendServebench(out, run, s, client, context);
        return out.toString();
    }

    private static void appendVllm(StringBuilder out, ServingSummary s) {
        out.append(center("vLLM definitions (where they differ)", '-')).append('\n');
        integer(out, s, FAILED, "Failed requests:");
        value(out, s, REQUEST_GOODPUT, "Request goodput (req/s):");
        integer(out, s, VLLM_PEAK_CONCURRENT_REQUESTS, "Peak concurrent requests (exact sweep):");
        value(out, s, VLLM_MEAN_TTFT_MS, "Mean TTFT, first choices event (ms):");
        value(out, s, VLLM_P99_TTFT_MS, "P99 TTFT, first choices event (ms):");
        value(out, s, VLLM_MEAN_E2EL_MS, "Mean E2EL, last token event (ms):");
    }

    private static void appendServebench(StringBuilder out, RunDescription run, ServingSummary s, ClientUsage client,
                                         java.util.Optional<PointContext> context) {
        out.append(center("servebench checks", '-')).append('\n');
        line(out, "Output token source:", s.tokenSource().name().toLowerCase(Locale.ROOT));
        line(out, "Prompts sent as:", run.tokenIdPrompts() ? "token ids (exact lengths)" : "text (lengths estimated)");
        line(out, "Input token source:", s.inputTokens().describe());
        integer(out, s, SERVER_INPUT_TOKENS, "Server input tokens (usage):");
        value(out, s, SERVER_INPUT_THROUGHPUT, "Server input throughput (tok/s):");
        value(out, s, SERVER_TOTAL_THROUGHPUT, "Server total throughput (tok/s):");
        integer(out, s, PROMPT_TOKEN_MISMATCHES, "Usage vs dataset prompt mismatches:");
        integer(out, s, USAGE_MISSING, "Requests without server usage:");
        integer(out, s, TOKEN_COUNT_MISMATCHES, "Usage vs chunk-count mismatches:");
        line(out, "Retokenized output:", s.retokenized().describe());
        integer(out, s, RETOKENIZED_MISMATCHES, "Usage vs retokenized mismatches:");
        value(out, s, MEAN_QUEUE_TIME_MS, "Mean client queue time (ms):");
        value(out, s, P99_QUEUE_TIME_MS, "P99 client queue time (ms):");
        value(out, s, P99_DISPATCH_LAG_MS, "P99 client dispatch lag (ms):");
        line(out, run.embeddedInProcess() ? "Process CPU, client + engine (cores):" : "Client CPU (cores):",
                Decimal.fixed(client.coresUsed(), 2));
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

    private static void value(StringBuilder out, ServingSummary s, MetricId id) {
        value(out, s, id, id.sglangLabel().orElseGet(() -> fallbackLabel(id)));
    }

    private static void value(StringBuilder out, ServingSummary s, MetricId id, String label) {
        OptionalDouble v = s.value(id);
        if (v.isPresent()) {
            line(out, label, Decimal.fixed(v.getAsDouble(), 2));
        }
    }

    private static void integer(StringBuilder out, ServingSummary s, MetricId id) {
        integer(out, s, id, id.sglangLabel().orElseGet(() -> fallbackLabel(id)));
    }

    private static void integer(StringBuilder out, ServingSummary s, MetricId id, String label) {
        OptionalDouble v = s.value(id);
        if (v.isPresent()) {
            line(out, label, Long.toString(Math.round(v.getAsDouble())));
        }
    }

    private static String fallbackLabel(MetricId id) {
        return id.id() + (id.unit() == Unit.REQUESTS || id.unit() == Unit.TOKENS ? ":" : " (" + id.unit().symbol() + "):");
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
