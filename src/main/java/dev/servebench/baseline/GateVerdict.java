package dev.servebench.baseline;

/** What the regression gate concludes about one metric at one load point, current run against baseline. */
public enum GateVerdict {
    /** Worse than the tolerance in the metric's bad direction, and statistically significant. */
    REGRESSION,
    /** Better than the tolerance in the metric's good direction, and statistically significant. */
    IMPROVEMENT,
    /** Within tolerance, or not statistically significant: the gate cannot tell the runs apart. */
    NO_CHANGE,
    /** Fewer than two samples on a side: the change is reported, but no significance can be computed. */
    INSUFFICIENT_DATA,
    /** The metric is informational (it describes the run, not its quality): reported, never judged. */
    NOT_JUDGED;

    /** Whether this verdict should fail a gate. */
    public boolean fails() {
        return this == REGRESSION;
    }
}
