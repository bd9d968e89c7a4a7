package dev.servebench.report.html;

import dev.servebench.results.RunVerdictsJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The sections around the measurements: environment, verdicts, kernel results and the nightly trend. */
final class ContextSections {

    private final ChartSet charts;

    ContextSections(ChartSet charts) {
        this.charts = charts;
    }

    static String environment(Input<EnvironmentView> input) {
        String body = switch (input) {
            case Input.Missing<EnvironmentView> missing -> Html.paragraph("missing", missing.reason());
            case Input.Found<EnvironmentView> found -> Html.table("facts", List.of("fact", "value"),
                    found.value().facts().stream().map(f -> List.of(f.name(),
                            f.value().isEmpty() ? "(not recorded)" : f.value())).toList(), List.of());
        };
        return Html.section("environment", "Environment", body);
    }

    static String verdicts(Input<List<VerdictRow>> input) {
        String body = switch (input) {
            case Input.Missing<List<VerdictRow>> missing -> Html.paragraph("missing", missing.reason());
            case Input.Found<List<VerdictRow>> found when found.value().isEmpty() ->
                    Html.paragraph("missing", "verdicts.json lists no verdicts");
            case Input.Found<List<VerdictRow>> found -> {
                Map<RunVerdictsJson.Outcome, Integer> counts = new TreeMap<>();
                found.value().forEach(v -> counts.merge(v.outcome(), 1, Integer::sum));
                List<String> summary = new ArrayList<>();
                for (RunVerdictsJson.Outcome outcome : RunVerdictsJson.Outcome.values()) {
                    summary.add(counts.getOrDefault(outcome, 0) + " " + outcome.id());
                }
                yield Html.paragraph("summary", found.value().size() + " verdicts: " + String.join(", ", summary))
                        + Html.table("verdicts", List.of("outcome", "kind", "load point", "verdict", "reason"),
                        found.value().stream().map(v -> List.of(v.outcome().id(), v.kind(), v.point(), v.name(),
                                v.reason())).toList(),
                        found.value().stream().map(v -> "outcome-" + v.outcome().id()).toList());
            }
        };
        return Html.section("verdicts", "Verdicts", body);
    }

    static String kernels(Input<KernelTables> input) {
        String body = switch (input) {
            case Input.Missing<KernelTables> missing -> Html.paragraph("missing", missing.reason());
            case Input.Found<KernelTables> found -> {
                KernelTables tables = found.value();
                yield Html.paragraph("note", "From " + tables.source() + ". Each figure next to the baseline measured"
                        + " in the same run; the spec's kernel expectations are judged on them, see Verdicts"
                        + " (docs/kernels.md).")
                        + Html.table("numbers", List.of("benchmark", "parameters", "figure", "unit", "baseline",
                                "ratio"), tables.figures().stream().map(f -> List.of(f.benchmark(), f.parameters(),
                                Numbers.text(f.value()), f.unit(), f.baseline(), f.ratios())).toList(), List.of());
            }
        };
        return Html.section("kernels", "Kernel results", body);
    }

    String trends(Input<TrendView> input) {
        String body = switch (input) {
            case Input.Missing<TrendView> missing -> Html.paragraph("missing", missing.reason());
            case Input.Found<TrendView> found -> {
                TrendView trend = found.value();
                StringBuilder out = new StringBuilder(Html.paragraph("note", trend.runs() + " runs of environment "
                        + trend.fingerprint() + " in " + trend.file() + ". Change points: e-divisive means"
                        + " (docs/gate.md); each is labelled with its shift and the commit range it happened in."));
                List<List<String>> shifts = new ArrayList<>();
                for (TrendView.Series series : trend.series()) {
                    for (TrendView.Shift shift : series.shifts()) {
                        shifts.add(List.of(series.metric(), series.point(), Numbers.percentChange(shift.relativeShift()),
                                "#" + shift.index() + " → #" + (shift.index() + 1),
                                ChartOptions.shortCommit(shift.lastCommitBefore()) + ".."
                                        + ChartOptions.shortCommit(shift.firstCommitAfter()),
                                String.format(java.util.Locale.ROOT, "%.3f", shift.pValue())));
                    }
                }
                out.append(shifts.isEmpty() ? Html.paragraph("summary", "no change point in the series shown")
                        : Html.table("numbers", List.of("metric", "load point", "shift", "between", "commits", "p"),
                        shifts, List.of()));
                out.append("<div class=\"charts\">\n");
                for (int i = 0; i < trend.series().size(); i++) {
                    out.append(charts.add("trend-" + (i + 1), ChartOptions.trend(trend.series().get(i)), "half"));
                }
                yield out.append("</div>\n").toString();
            }
        };
        return Html.section("trends", "Trends", body);
    }
}
