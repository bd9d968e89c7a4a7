package dev.servebench.metric;

/** Which way a change of the metric counts as an improvement when runs are compared. */
public enum Direction {
    HIGHER_IS_BETTER,
    LOWER_IS_BETTER,
    /** Describes the run (sizes, counts, load shape) rather than its quality. */
    INFORMATIONAL
}
