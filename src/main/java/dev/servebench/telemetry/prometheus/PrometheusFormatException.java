package dev.servebench.telemetry.prometheus;

/**
 * A scrape that is not valid Prometheus text format. The message names the line (1-based), the column
 * (1-based) and shows the offending line, shortened when long.
 */
public final class PrometheusFormatException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;
    private static final int SHOWN_LINE_CHARS = 200;

    private final int lineNumber;
    private final int column;

    PrometheusFormatException(int lineNumber, int column, String problem, String line) {
        super("line " + lineNumber + ", column " + column + ": " + problem + ": " + shorten(line));
        this.lineNumber = lineNumber;
        this.column = column;
    }

    /** 1-based line number of the offending line. */
    public int lineNumber() {
        return lineNumber;
    }

    /** 1-based column where the problem was found. */
    public int column() {
        return column;
    }

    private static String shorten(String line) {
        return line.length() <= SHOWN_LINE_CHARS ? line : line.substring(0, SHOWN_LINE_CHARS) + "…";
    }
}
