package dev.servebench.metric;

/**
 * What the reference tool whose definition a statistic reproduces does with it: print a console line, write a
 * result-file key, both or neither. Declared per metric, so a statistic the tool does not report (p99.9) gets
 * no tool name, and the reference cross-check and SGLang's console layout do not expect it.
 */
public enum Reported {
    PRINTED_AND_WRITTEN(true, true),
    /** Written to the result file, not printed (std). */
    WRITTEN(false, true),
    /** Printed, not written (SGLang's max ITL). */
    PRINTED(true, false),
    /** Neither tool reports it: servebench's own statistic. */
    NOT_REPORTED(false, false);

    private final boolean printed;
    private final boolean written;

    Reported(boolean printed, boolean written) {
        this.printed = printed;
        this.written = written;
    }

    public boolean printed() {
        return printed;
    }

    public boolean written() {
        return written;
    }
}
