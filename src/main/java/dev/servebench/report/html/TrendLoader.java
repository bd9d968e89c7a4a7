package dev.servebench.report.html;

import dev.servebench.baseline.ChangePointOptions;
import dev.servebench.history.RunHistory;
import dev.servebench.history.Trend;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.View;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The trend section's input: the history lines of the run's spec and environment. Every point gets a chart
 * of the headline metrics ({@link View#TREND_HEADLINE}); any other series gets one only when it has a change point, because a history holds
 * some eighty metrics per point and a page of four hundred flat lines hides the one that moved.
 */
final class TrendLoader {

    private TrendLoader() {
    }

    static Input<TrendView> load(Path root, String spec, String fingerprint) throws IOException {
        Path file = root.resolve(spec + ".jsonl");
        if (!Files.isRegularFile(file)) {
            return Input.missing("no history file " + file + " for spec " + spec
                    + " (servebench history append --from RUN_DIR adds a run)");
        }
        List<RunHistory.Entry> entries = RunHistory.read(file, fingerprint);
        if (entries.isEmpty()) {
            int others = RunHistory.read(file, null).size();
            return Input.missing("no history for fingerprint " + fingerprint + " in " + file + " (" + others
                    + " runs of other environments)");
        }
        List<Trend.Shift> shifts = Trend.shifts(entries, ChangePointOptions.defaults());
        Set<String> points = new LinkedHashSet<>();
        entries.forEach(entry -> points.addAll(entry.medians().keySet()));
        List<TrendView.Series> series = new ArrayList<>();
        for (String point : points) {
            for (MetricId metric : MetricId.values()) {
                List<Trend.Shift> here = shifts.stream()
                        .filter(s -> s.point().equals(point) && s.metric().equals(metric.id())).toList();
                if (metric.shownIn(View.TREND_HEADLINE) || !here.isEmpty()) {
                    series(entries, point, metric, here).ifPresent(series::add);
                }
            }
        }
        return Input.found(new TrendView(file.toString(), fingerprint, entries.size(), series));
    }

    /** The runs that have the metric at the point, as Trend.shifts numbers them; empty if none has it. */
    private static java.util.Optional<TrendView.Series> series(List<RunHistory.Entry> entries, String point,
            MetricId metric, List<Trend.Shift> shifts) {
        List<TrendView.Run> runs = new ArrayList<>();
        for (RunHistory.Entry entry : entries) {
            entry.median(point, metric.id()).ifPresent(value -> runs.add(new TrendView.Run(entry.commit(),
                    entry.time(), value)));
        }
        if (runs.isEmpty()) {
            return java.util.Optional.empty();
        }
        List<TrendView.Shift> marks = shifts.stream().map(s -> new TrendView.Shift(s.change().index(),
                s.change().relativeShift(), s.change().pValue(), s.lastCommitBefore(), s.firstCommitAfter())).toList();
        return java.util.Optional.of(new TrendView.Series(metric.id(), metric.unit().symbol(), point, runs, marks));
    }
}
