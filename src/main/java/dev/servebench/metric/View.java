package dev.servebench.metric;

/**
 * A place that shows a chosen few metrics, selected by their {@link MetricId} declarations rather than by a
 * list of its own. The summary file, measurements.json, history and the gate report list every metric; the
 * per-point console lists every metric with a console label ({@link MetricId#consoleLabel()}). Within a
 * view, metrics are in the order of the ranks they declare.
 */
public enum View {
    /** The perf run's console summary: the headline numbers of each load point (two per line). */
    RUN_HEADLINE("perf run console headline"),
    /**
     * The throughputs shown side by side, so an output-token figure is never mistaken for a total-token one: the
     * HTML report's throughput table and chart, and the "at POINT:" line of every expectation message.
     */
    THROUGHPUT_TABLE("throughput table (HTML report, expectation messages)"),
    /** The HTML report's latency tables and charts, one chart per latency series. */
    HTML_LATENCY_TABLE("HTML latency table"),
    /** Charted at every load point in the HTML trend section, whether or not it shifted. */
    TREND_HEADLINE("HTML trend headline");

    private final String title;

    View(String title) {
        this.title = title;
    }

    /** For docs/metrics.md. */
    public String title() {
        return title;
    }
}
