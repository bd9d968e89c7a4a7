package dev.servebench.baseline;

/** What the regression gate concludes about one metric at one load point, current run against baseline. */
public enum GateVerdict {
    /** Worse than the tolerance in the metric's bad direction, and statistically significant. */
    REGRESSION,
    /** Better than the tolerance in the metric's good direction, and statistically significant. */
    IMPROVEMENT,
    /** Within tolerance, or not statistically significant: the gate cannot tell the runs apart. */
    NO_CHANGE,
    /**
     * Too little usable data to judge: fewer than two samples on a side (fewer than three paired rounds), or, in a
     * paired comparison, no change shown where more rounds were disturbed than may be set aside. The change is
     * reported; the gate or comparison does not pass on it.
     */
    INSUFFICIENT_DATA,
    /** The metric is informational (it describes the run, not its quality): reported, never judged. */
    NOT_JUDGED;

    /** Whether this verdict should fail a gate. */
    public boolean fails() {
        return this == REGRESSION;
    }
}
