package dev.servebench.report.html;

import java.util.List;
import java.util.Objects;

/**
 * The nightly history of this run's spec and environment: one series per metric × load point, with the
 * change points found in it and the commit range each happened in.
 *
 * @param file        the history file read
 * @param fingerprint the environment whose lines were kept
 * @param runs        lines of that environment
 */
public record TrendView(String file, String fingerprint, int runs, List<Series> series) {

    public TrendView {
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(fingerprint, "fingerprint");
        series = List.copyOf(series);
    }

    /** One metric at one point over the runs, oldest first. */
    public record Series(String metric, String unit, String point, List<Run> runs, List<Shift> shifts) {
        public Series {
            Objects.requireNonNull(metric, "metric");
            Objects.requireNonNull(unit, "unit");
            Objects.requireNonNull(point, "point");
            runs = List.copyOf(runs);
            shifts = List.copyOf(shifts);
            for (Shift shift : shifts) {
                if (shift.index() < 1 || shift.index() >= runs.size()) {
                    throw new IllegalArgumentException(metric + " @ " + point + ": change point index " + shift.index()
                            + " outside the series of " + runs.size() + " runs");
                }
            }
        }
    }

    /** The series' value in one run. */
    public record Run(String commit, String time, double value) {
        public Run {
            Objects.requireNonNull(commit, "commit");
            Objects.requireNonNull(time, "time");
        }
    }

    /**
     * A change point: the first run of the new regime, and the last commit before and first commit after it.
     *
     * @param relativeShift (mean after - mean before) / |mean before|
     */
    public record Shift(int index, double relativeShift, double pValue, String lastCommitBefore,
            String firstCommitAfter) {
        public Shift {
            Objects.requireNonNull(lastCommitBefore, "lastCommitBefore");
            Objects.requireNonNull(firstCommitAfter, "firstCommitAfter");
        }
    }
}
