package dev.servebench.history;

import dev.servebench.baseline.ChangePoint;
import dev.servebench.baseline.ChangePointOptions;
import dev.servebench.baseline.ChangePoints;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Change points (e-divisive means, docs/gate.md) of every metric × load point series of a history. Pure. */
public final class Trend {

    private Trend() {
    }

    /** A detected shift with the commit range it happened in. */
    public record Shift(String metric, String point, ChangePoint change, String lastCommitBefore,
            String firstCommitAfter) {

        public String describe() {
            return String.format(Locale.ROOT, "%s @ %s: %+.1f %% between run %d and %d (commits %s..%s), p = %.3f",
                    metric, point, change.relativeShift() * 100, change.index() - 1, change.index(),
                    shortCommit(lastCommitBefore), shortCommit(firstCommitAfter), change.pValue());
        }

        private static String shortCommit(String commit) {
            return commit.isEmpty() ? "?" : commit.substring(0, Math.min(10, commit.length()));
        }
    }

    public static List<Shift> shifts(List<RunHistory.Entry> entries, ChangePointOptions options) {
        Set<String> series = new LinkedHashSet<>();
        for (RunHistory.Entry entry : entries) {
            entry.medians().forEach((point, metrics) -> metrics.keySet()
                    .forEach(metric -> series.add(point + "\u0000" + metric)));
        }
        List<Shift> shifts = new ArrayList<>();
        for (String key : series) {
            String point = key.substring(0, key.indexOf('\u0000'));
            String metric = key.substring(key.indexOf('\u0000') + 1);
            List<Double> values = new ArrayList<>();
            List<String> commits = new ArrayList<>();
            for (RunHistory.Entry entry : entries) {
                java.util.OptionalDouble value = entry.median(point, metric);
                if (value.isPresent()) {
                    values.add(value.getAsDouble());
                    commits.add(entry.commit());
                }
            }
            double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
            for (ChangePoint change : ChangePoints.detect(array, options)) {
                shifts.add(new Shift(metric, point, change, commits.get(change.index() - 1),
                        commits.get(change.index())));
            }
        }
        return shifts;
    }
}
