package dev.servebench.report.html;

import dev.servebench.metric.LatencySeries;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.View;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The sections drawn from the run's own measurements: throughput, timeline, latency, distributions. */
final class PerformanceSections {

    static final List<MetricId> THROUGHPUTS = MetricId.inView(View.THROUGHPUT_TABLE);
    /** The latency table's metrics, one family (one chart) per series, in the series' order. */
    static final Map<LatencySeries, List<MetricId>> LATENCIES = latencyFamilies();
    private static final String NO_POINTS = "measurements.json lists no measured load point";

    private final List<LoadPointView> points;
    private final ChartSet charts;
    private final ChartOptions.Axis axis;

    PerformanceSections(List<LoadPointView> points, ChartSet charts) {
        this.points = points;
        this.charts = charts;
        this.axis = ChartOptions.Axis.of(points);
    }

    String throughput() {
        if (points.isEmpty()) {
            return Html.section("throughput", "Throughput", Html.paragraph("missing", NO_POINTS));
        }
        List<String> headers = new ArrayList<>(List.of("load point", "valid", "requests per repeat", "repeats"));
        THROUGHPUTS.forEach(metric -> headers.add(ChartOptions.seriesName(metric)));
        List<List<String>> rows = new ArrayList<>();
        for (LoadPointView point : points) {
            List<String> row = new ArrayList<>(List.of(point.point(), point.valid() ? "yes" : "no",
                    Integer.toString(point.requested()), Integer.toString(point.repeats())));
            THROUGHPUTS.forEach(metric -> row.add(spread(point, metric)));
            rows.add(row);
        }
        return Html.section("throughput", "Throughput",
                Html.paragraph("note", "Medians over repeats, min–max in brackets. output_throughput counts generated"
                        + " tokens only; total_throughput adds the prompt tokens; peak_output_throughput is the"
                        + " busiest single second (a burst). Report the metric id with every number.")
                        + charts.add("throughput", ChartOptions.throughput(THROUGHPUTS, points, axis), "wide")
                        + Html.table("numbers", headers, rows, List.of()) + speedOfLight());
    }

    /**
     * Measured against the bound at each point, with the limiting term named, and the GPUs' energy beside it;
     * nothing when no point has either (no model: and hardware:, no GPU samples).
     */
    String speedOfLight() {
        if (points.stream().noneMatch(p -> p.roofline().isPresent() || p.energy().isPresent())) {
            return "";
        }
        List<String> headers = List.of("load point", "batch", "context", "measured output tok/s", "bound output tok/s",
                "output_throughput_of_roofline", "measured mean ITL ms", "min ITL ms", "itl_of_bound", "limited by",
                "GPU energy kJ", "output tok/J", "mean power of limit");
        List<List<String>> rows = new ArrayList<>();
        for (LoadPointView point : points) {
            String measured = spread(point, MetricId.OUTPUT_THROUGHPUT);
            String itl = spread(point, MetricId.MEAN_ITL_MS);
            List<String> row = new ArrayList<>(switch (point.roofline().orElse(new RooflineView.Unbounded(
                    "the spec has no model: and hardware:"))) {
                case RooflineView.Bounded b -> List.of(point.point(), Integer.toString(b.batch()),
                        Integer.toString(b.context()), measured, Numbers.text(b.boundOutputThroughput()),
                        share(b.outputThroughputOfRoofline()), itl, Numbers.text(b.minItlMs()), share(b.itlOfBound()),
                        b.limitingTerm());
                case RooflineView.Unbounded u -> List.of(point.point(), "–", "–", measured, "–", "–", itl, "–", "–",
                        "no bound: " + u.reason());
            });
            point.energy().ifPresentOrElse(e -> row.addAll(List.of(Numbers.text(e.totalJoules() / 1e3),
                    e.outputTokensPerJoule().isPresent() ? Numbers.text(e.outputTokensPerJoule().getAsDouble())
                            : "not measured", share(e.shareOfPowerLimit()))),
                    () -> row.addAll(List.of("no GPU samples", "–", "–")));
            rows.add(row);
        }
        return "<h3>Speed of light</h3>\n" + Html.paragraph("note", "Each point against the fastest its model can"
                + " decode on this hardware (docs/roofline.md): the decode step at batch = concurrency and the mean"
                + " context, bounded by memory bandwidth, compute or the tensor-parallel allreduce, whichever is"
                + " slowest (limited by). Fractions: measured output tok/s ÷ bound; min ITL ÷ measured mean ITL."
                + " A small fraction says how far the engine is from the hardware, not that the hardware is slow."
                + " Energy: power.draw integrated over the last repeat, all GPUs; mean power far below the limit"
                + " beside a communication-bound step is the GPUs waiting.")
                + Html.table("numbers", headers, rows, List.of());
    }

    private static String share(java.util.OptionalDouble share) {
        return share.isEmpty() ? "not measured" : Numbers.text(share.getAsDouble() * 100) + " %";
    }

    String timeline() {
        StringBuilder body = new StringBuilder(Html.paragraph("note", "Output token events per second of one repeat"
                + " (first token + one per ITL entry, as peak_output_throughput counts them). The dashed line is the"
                + " sustained output_throughput (median over repeats); the marked bar is the busiest second. Bars far"
                + " above the line are bursts, not capacity."));
        if (points.isEmpty()) {
            body.append(Html.paragraph("missing", NO_POINTS));
        }
        body.append("<div class=\"charts\">\n");
        for (int i = 0; i < points.size(); i++) {
            LoadPointView point = points.get(i);
            switch (point.records()) {
                case Input.Found<LoadPointView.RepeatRecords> found -> body.append(
                        charts.add("timeline-" + (i + 1), ChartOptions.timeline(point, found.value()), "timeline"));
                case Input.Missing<LoadPointView.RepeatRecords> missing -> body.append(
                        Html.paragraph("missing", point.point() + ": " + missing.reason()));
            }
        }
        return Html.section("timeline", "Output token timeline", body.append("</div>\n").toString());
    }

    String latency() {
        if (points.isEmpty()) {
            return Html.section("latency", "Latency percentiles", Html.paragraph("missing", NO_POINTS));
        }
        StringBuilder body = new StringBuilder(Html.paragraph("note", "Per load point, the median over repeats of"
                + " each percentile (median = p50), in ms. SGLang definitions: TTFT to the first token with text,"
                + " TPOT = (latency − TTFT) / (output tokens − 1), ITL between token events."));
        body.append("<div class=\"charts\">\n");
        List<String> headers = new ArrayList<>(List.of("metric"));
        points.forEach(point -> headers.add(point.point()));
        List<List<String>> rows = new ArrayList<>();
        for (Map.Entry<LatencySeries, List<MetricId>> family : LATENCIES.entrySet()) {
            String title = family.getKey().title();
            body.append(charts.add("latency-" + title.toLowerCase(java.util.Locale.ROOT).replace(' ', '-'),
                    ChartOptions.latency(title, family.getValue(), points, axis), "half"));
            for (MetricId metric : family.getValue()) {
                List<String> row = new ArrayList<>(List.of(ChartOptions.seriesName(metric)));
                points.forEach(point -> row.add(spread(point, metric)));
                rows.add(row);
            }
        }
        body.append("</div>\n").append(Html.table("numbers", headers, rows, List.of()));
        return Html.section("latency", "Latency percentiles", body.toString());
    }

    String distributions() {
        List<String> names = new ArrayList<>();
        List<Percentiles> ttft = new ArrayList<>();
        List<Percentiles> itl = new ArrayList<>();
        List<List<String>> sources = new ArrayList<>();
        for (LoadPointView point : points) {
            if (point.records() instanceof Input.Found<LoadPointView.RepeatRecords> found) {
                names.add(point.point());
                ttft.add(found.value().ttftMs());
                itl.add(found.value().itlMs());
                sources.add(List.of(point.point(), found.value().source(), found.value().file(),
                        Integer.toString(found.value().ttftMs().samples()),
                        Integer.toString(found.value().itlMs().samples())));
            }
        }
        if (names.isEmpty()) {
            return Html.section("distributions", "TTFT and ITL distributions", Html.paragraph("missing",
                    points.isEmpty() ? NO_POINTS : "no load point has its records files (<label>.records.jsonl)"));
        }
        String subtitle = "empirical CDF of each point's representative repeat (see the table)";
        return Html.section("distributions", "TTFT and ITL distributions", "<div class=\"charts\">\n"
                + charts.add("ttft-cdf", ChartOptions.cdf("TTFT distribution", subtitle, "ms", names, ttft), "half")
                + charts.add("itl-cdf", ChartOptions.cdf("ITL distribution", subtitle, "ms", names, itl), "half")
                + "</div>\n" + Html.table("numbers", List.of("load point", "records of", "file", "TTFT samples",
                "ITL samples"),
                sources, List.of()));
    }

    private static Map<LatencySeries, List<MetricId>> latencyFamilies() {
        Map<LatencySeries, List<MetricId>> families = new EnumMap<>(LatencySeries.class);
        for (MetricId metric : MetricId.inView(View.HTML_LATENCY_TABLE)) {
            families.computeIfAbsent(metric.series().orElseThrow(), s -> new ArrayList<>()).add(metric);
        }
        families.replaceAll((series, metrics) -> List.copyOf(metrics));
        return Collections.unmodifiableMap(families);
    }

    private static String spread(LoadPointView point, MetricId metric) {
        Optional<LoadPointView.Spread> spread = point.metric(metric);
        if (spread.isEmpty()) {
            return "–";
        }
        LoadPointView.Spread s = spread.get();
        String median = Numbers.text(s.median());
        return point.repeats() > 1 && s.min() != s.max()
                ? median + " (" + Numbers.text(s.min()) + "–" + Numbers.text(s.max()) + ")" : median;
    }
}
