package dev.servebench.report.html;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.TokenBasis;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * ECharts options of the report's charts, as JSON data (no functions), so the page script only has to hand
 * them to {@code echarts.init(...).setOption(...)}. Series are named by metric id and unit: a number on the
 * page is never just "throughput".
 */
final class ChartOptions {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final Set<TokenBasis> INPUT_AND_OUTPUT = Set.of(TokenBasis.PROMPT_AND_OUTPUT_LENGTH,
            TokenBasis.USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH);

    private ChartOptions() {
    }

    /**
     * The throughput table's metrics over the load points: whole-run rates as lines (the first one labelled, those
     * adding input and output tokens dashed), one-second peaks as marked points.
     */
    static ObjectNode throughput(List<MetricId> throughputs, List<LoadPointView> points, Axis axis) {
        ObjectNode option = base("Token throughput by load point",
                "median over repeats; peak_output_throughput = busiest 1-s bucket, a burst, not a sustainable rate",
                axis.name(), axis.labels(), throughputs.getFirst().unit().symbol());
        ArrayNode series = option.putArray("series");
        boolean first = true;
        for (MetricId metric : throughputs) {
            if (metric.tokenBasis() == TokenBasis.TOKEN_EVENTS) {
                ObjectNode peak = series.addObject().put("name", seriesName(metric))
                        .put("type", "scatter").put("symbol", "triangle").put("symbolSize", 14);
                peak.set("data", medians(points, metric));
                peak.putObject("label").put("show", true).put("position", "top").put("formatter", "peak {c}");
                continue;
            }
            ObjectNode line = line(series, metric, points);
            if (first) {
                line.putObject("label").put("show", true).put("position", "right");
                first = false;
            } else if (INPUT_AND_OUTPUT.contains(metric.tokenBasis())) {
                line.putObject("lineStyle").put("type", "dashed");
            }
        }
        return option;
    }

    /** Token events per second of one point, with the sustained rate as a line and the busiest second marked. */
    static ObjectNode timeline(LoadPointView point, LoadPointView.RepeatRecords records) {
        long[] buckets = records.tokenEventsPerSecond();
        ArrayNode seconds = JSON.arrayNode();
        ArrayNode counts = JSON.arrayNode();
        for (int i = 0; i < buckets.length; i++) {
            seconds.add(i);
            counts.add(buckets[i]);
        }
        ObjectNode option = base(point.point(), "records of " + records.source() + "\n" + records.file()
                + "; 1-s buckets from the first successful start",
                "second of the run", seconds, MetricId.OUTPUT_THROUGHPUT.unit().symbol());
        ObjectNode bars = option.putArray("series").addObject()
                .put("name", "output token events per 1-s bucket (" + MetricId.OUTPUT_THROUGHPUT.unit().symbol() + ")")
                .put("type", "bar").put("barCategoryGap", "15%");
        bars.set("data", counts);
        ObjectNode peak = bars.putObject("markPoint").put("symbol", "circle").put("symbolSize", 8);
        peak.putArray("data").addObject().put("type", "max").put("name", "peak");
        peak.putObject("itemStyle").put("color", "#c0392b");
        peak.putObject("label").put("position", "top").put("fontWeight", "bold").put("formatter", "peak {c}");
        Optional<LoadPointView.Spread> sustained = point.metric(MetricId.OUTPUT_THROUGHPUT);
        if (sustained.isPresent()) {
            ObjectNode line = bars.putObject("markLine").put("symbol", "none");
            ObjectNode at = line.putArray("data").addObject().put("name", "sustained");
            at.put("yAxis", Numbers.inlined(sustained.get().median()));
            at.putObject("lineStyle").put("type", "dashed").put("width", 2).put("color", "#c0392b");
            at.putObject("label").put("position", "insideEndTop").put("backgroundColor", "rgba(255, 255, 255, 0.85)")
                    .put("padding", 2).put("formatter", "sustained "
                    + MetricId.OUTPUT_THROUGHPUT.id() + " (median) " + Numbers.text(sustained.get().median()) + " "
                    + MetricId.OUTPUT_THROUGHPUT.unit().symbol());
        }
        return option;
    }

    /** Three percentiles of one latency over the load points, as grouped bars. */
    static ObjectNode latency(String title, List<MetricId> percentiles, List<LoadPointView> points, Axis axis) {
        ObjectNode option = base(title, "median over repeats of each percentile", axis.name(), axis.labels(),
                percentiles.getFirst().unit().symbol());
        ArrayNode series = option.putArray("series");
        for (MetricId metric : percentiles) {
            series.addObject().put("name", seriesName(metric)).put("type", "bar").set("data", medians(points, metric));
        }
        return option;
    }

    /** An empirical CDF per load point (x: value, y: share of samples at or below it). */
    static ObjectNode cdf(String title, String subtitle, String unit, List<String> names, List<Percentiles> distributions) {
        ObjectNode option = base(title, subtitle, unit, null, "share at or below");
        ((ObjectNode) option.get("xAxis")).put("type", "value").remove("data");
        ((ObjectNode) option.get("yAxis")).put("min", 0).put("max", 1);
        ArrayNode series = option.putArray("series");
        for (int i = 0; i < names.size(); i++) {
            double[] ranks = distributions.get(i).ranks();
            double[] values = distributions.get(i).values();
            ArrayNode data = JSON.arrayNode();
            for (int k = 0; k < ranks.length; k++) {
                data.addArray().add(Numbers.inlined(values[k])).add(ranks[k] / 100);
            }
            series.addObject().put("name", names.get(i)).put("type", "line").put("showSymbol", false)
                    .set("data", data);
        }
        return option;
    }

    /** One metric at one point over the nightly runs, each change point a line labelled with its commit range. */
    static ObjectNode trend(TrendView.Series trend) {
        ArrayNode runs = JSON.arrayNode();
        ArrayNode values = JSON.arrayNode();
        for (int i = 0; i < trend.runs().size(); i++) {
            runs.add(runLabel(i, trend.runs().get(i)));
            values.add(Numbers.inlined(trend.runs().get(i).value()));
        }
        ObjectNode option = base(trend.metric() + " @ " + trend.point(), trend.runs().size() + " runs, oldest first; "
                + trend.shifts().size() + " change point(s)", "run", runs, trend.unit());
        ((ObjectNode) option.get("yAxis")).put("scale", true);
        ObjectNode line = option.putArray("series").addObject().put("name", trend.metric() + " (" + trend.unit() + ")")
                .put("type", "line");
        line.set("data", values);
        if (!trend.shifts().isEmpty()) {
            ObjectNode marks = line.putObject("markLine").put("symbol", "none");
            ArrayNode data = marks.putArray("data");
            ObjectNode areas = line.putObject("markArea");
            areas.putObject("itemStyle").put("color", "rgba(192, 57, 43, 0.08)");
            ArrayNode areaData = areas.putArray("data");
            for (TrendView.Shift shift : trend.shifts()) {
                String at = runLabel(shift.index(), trend.runs().get(shift.index()));
                ObjectNode mark = data.addObject().put("xAxis", at);
                mark.putObject("lineStyle").put("color", "#c0392b").put("type", "dashed");
                mark.putObject("label").put("formatter", Numbers.percentChange(shift.relativeShift()) + "\n"
                        + shortCommit(shift.lastCommitBefore()) + ".." + shortCommit(shift.firstCommitAfter()));
                ArrayNode area = areaData.addArray();
                area.addObject().put("xAxis", at);
                area.addObject().put("xAxis", runLabel(trend.runs().size() - 1, trend.runs().getLast()));
            }
        }
        return option;
    }

    /**
     * The load-point axis: concurrencies when every point is a closed-loop concurrency point, else the points'
     * full names (a rate point has no single number to stand for it).
     */
    record Axis(String name, ArrayNode labels) {
        static Axis of(List<LoadPointView> points) {
            boolean concurrencyOnly = points.stream().allMatch(LoadPointView::concurrencyOnly);
            ArrayNode labels = JSON.arrayNode();
            for (LoadPointView point : points) {
                labels.add(concurrencyOnly ? point.point().substring("concurrency=".length()) : point.point());
            }
            return new Axis(concurrencyOnly ? "concurrency" : "load point", labels);
        }
    }

    static String shortCommit(String commit) {
        return commit.isEmpty() ? "?" : commit.substring(0, Math.min(10, commit.length()));
    }

    static String seriesName(MetricId metric) {
        return metric.id() + " (" + metric.unit().symbol() + ")";
    }

    private static String runLabel(int index, TrendView.Run run) {
        return "#" + (index + 1) + " " + shortCommit(run.commit());
    }

    private static ObjectNode line(ArrayNode series, MetricId metric, List<LoadPointView> points) {
        ObjectNode line = series.addObject().put("name", seriesName(metric)).put("type", "line")
                .put("symbolSize", 8);
        line.set("data", medians(points, metric));
        return line;
    }

    private static ArrayNode medians(List<LoadPointView> points, MetricId metric) {
        ArrayNode data = JSON.arrayNode();
        for (LoadPointView point : points) {
            Optional<LoadPointView.Spread> spread = point.metric(metric);
            if (spread.isPresent()) {
                data.add(Numbers.inlined(spread.get().median()));
            } else {
                data.addNull();
            }
        }
        return data;
    }

    private static ObjectNode base(String title, String subtitle, String xName, ArrayNode categories, String yName) {
        ObjectNode option = JSON.objectNode().put("animation", false);
        ObjectNode heading = option.putObject("title").put("text", title).put("subtext", subtitle).put("left", "center");
        heading.putObject("subtextStyle").put("lineHeight", 14);
        option.putObject("tooltip").put("trigger", "axis");
        option.putObject("legend").put("bottom", 0).put("type", "scroll");
        option.putObject("grid").put("left", 64).put("right", 40).put("top", 84).put("bottom", 72);
        ObjectNode x = option.putObject("xAxis").put("type", "category").put("name", xName)
                .put("nameLocation", "middle").put("nameGap", 28);
        if (categories != null) {
            x.set("data", categories);
        }
        option.putObject("yAxis").put("type", "value").put("name", yName);
        return option;
    }
}
