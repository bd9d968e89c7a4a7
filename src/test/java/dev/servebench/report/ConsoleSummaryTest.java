package dev.servebench.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.IoTransport;

import dev.servebench.load.ClientUsage;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.MetricOptions;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.metric.TokenSource;
import dev.servebench.results.RunDescription;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-point console, whose lines are selected by the metrics' declarations: the layout stays SGLang's. */
class ConsoleSummaryTest {

    private static final RunDescription RUN = new RunDescription("http://localhost:1", "sglang", "m", "random", 8, 8,
            0.0, 0, 1, true, TokenSource.SERVER_USAGE, "", "url");

    private static List<String> labels() {
        String text = ConsoleSummary.render(RUN, new LoadPoint(4, Double.POSITIVE_INFINITY, 1.0),
                SummaryCalculator.compute(List.of(), 1_000_000_000L, MetricOptions.defaults()),
                new ClientUsage(0, 1, 0, 0, 0, IoTransport.NIO));
        return text.lines().filter(l -> l.length() > 40 && l.charAt(40) == ' ' && l.contains(":"))
                .map(l -> l.substring(0, 40).strip()).toList();
    }

    @Test
    void sglangsBlockIsSglangsLayoutLineForLine() {
        assertThat(labels()).containsSubsequence("Backend:", "Traffic request rate:", "Max request concurrency:",
                "Successful requests:", "Benchmark duration (s):", "Total input tokens:", "Total generated tokens:",
                "Request throughput (req/s):", "Input token throughput (tok/s):", "Output token throughput (tok/s):",
                "Peak output token throughput (tok/s):", "Peak concurrent requests:", "Total token throughput (tok/s):",
                "Concurrency:", "Mean E2E Latency (ms):", "Median E2E Latency (ms):", "P90 E2E Latency (ms):",
                "P95 E2E Latency (ms):", "P99 E2E Latency (ms):", "Mean TTFT (ms):", "Median TTFT (ms):",
                "P90 TTFT (ms):", "P95 TTFT (ms):", "P99 TTFT (ms):", "Mean TPOT (ms):", "Median TPOT (ms):",
                "P90 TPOT (ms):", "P95 TPOT (ms):", "P99 TPOT (ms):", "Mean ITL (ms):", "Median ITL (ms):",
                "P90 ITL (ms):", "P95 ITL (ms):", "P99 ITL (ms):", "Max ITL (ms):", "Failed requests:");
        String text = ConsoleSummary.render(RUN, new LoadPoint(4, Double.POSITIVE_INFINITY, 1.0),
                SummaryCalculator.compute(List.of(), 1_000_000_000L, MetricOptions.defaults()),
                new ClientUsage(0, 1, 0, 0, 0, IoTransport.NIO));
        assertThat(text).contains("----------------End-to-End Latency----------------\nMean E2E Latency (ms):")
                .contains(String.format("%-40s %-10s%n", "Successful requests:", "0"))
                .contains(String.format("%-40s %-10s%n", "Concurrency:", "0.00"))
                .doesNotContain("Std").doesNotContain("p999").doesNotContain("P99.9");
    }

    @Test
    void vllmAndServebenchBlocksShowTheDeclaredLines() {
        assertThat(labels()).containsSubsequence("Failed requests:", "Peak concurrent requests (exact sweep):",
                "Mean TTFT, first choices event (ms):", "P99 TTFT, first choices event (ms):",
                "Mean E2EL, last token event (ms):", "Output token source:", "Prompts sent as:", "Input token source:",
                "Server input tokens (usage):", "Server input throughput (tok/s):", "Server total throughput (tok/s):",
                "Usage vs dataset prompt mismatches:", "Requests without server usage:",
                "Usage vs chunk-count mismatches:", "Mean client queue time (ms):", "P99 client queue time (ms):",
                "P99 client dispatch lag (ms):", "Client CPU (cores):");
        // no goodput SLOs: the metric is absent, so is its line
        assertThat(labels()).doesNotContain("Request goodput (req/s):");
    }
}
