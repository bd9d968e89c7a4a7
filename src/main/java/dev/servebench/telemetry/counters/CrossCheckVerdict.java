package dev.servebench.telemetry.counters;

/** The outcome of comparing one server counter with the client's total. */
public enum CrossCheckVerdict {
    /** Both counted the same, within the tolerance. */
    AGREE,
    /** The relative difference is beyond the tolerance (or the client counted 0 and the server did not). */
    DISAGREE,
    /** The server exposes no such counter (or no known metrics at all): nothing to compare. */
    SERVER_HAS_NO_COUNTER,
    /** The server's counter went back between the scrapes (a restart): the difference means nothing. */
    COUNTER_RESET
}
