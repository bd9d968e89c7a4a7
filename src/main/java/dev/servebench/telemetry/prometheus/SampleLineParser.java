package dev.servebench.telemetry.prometheus;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Parses one sample line: {@code name[{labels}] value [timestamp] [# exemplar]}. One instance per line;
 * a cursor walks the line once and every failure names its column.
 *
 * <p>Besides the classic format it accepts the forms newer exporters write: a quoted metric name as the
 * first entry inside the braces ({@code {"a.b",x="1"}}), quoted label names, a trailing comma before
 * {@code }}, and an OpenMetrics exemplar after the value, which is skipped.
 */
final class SampleLineParser {

    /** Go's ParseFloat syntax for finite decimal numbers, which is what Prometheus writes and reads. */
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern INTEGER = Pattern.compile("-?\\d+");

    private final String line;
    private final int lineNumber;
    private final boolean openMetrics;
    private int pos;

    /**
     * @param openMetrics whether the scrape is OpenMetrics, whose timestamps are seconds (possibly
     *                    fractional) rather than the classic format's integer milliseconds
     */
    SampleLineParser(String line, int lineNumber, boolean openMetrics) {
        this.line = line;
        this.lineNumber = lineNumber;
        this.openMetrics = openMetrics;
    }

    Sample parse() {
        skipBlanks();
        String name = atEnd() || peek() == '{' ? null : identifier(true, "a metric name");
        int afterName = pos;
        skipBlanks();
        Map<String, String> labels = new LinkedHashMap<>();
        boolean braces = !atEnd() && peek() == '{';
        if (braces) {
            name = labelSet(name, labels);
        }
        if (name == null) {
            throw fail("the sample has no metric name");
        }
        // A bare name must end in a blank (else "a-b 1" would read as "a"); after '}' the blank is optional.
        if (!braces && pos == afterName && !atEnd()) {
            throw fail("expected a blank before the value");
        }
        skipBlanks();
        if (atEnd()) {
            throw fail("the sample has no value");
        }
        int valueStart = pos;
        double value = value(token(), valueStart);
        skipBlanks();
        OptionalLong timestamp = OptionalLong.empty();
        if (!atEnd() && peek() != '#') {
            int timestampStart = pos;
            timestamp = OptionalLong.of(timestamp(token(), timestampStart));
            skipBlanks();
        }
        // An OpenMetrics exemplar (" # {trace_id=\"…\"} 1.0") describes one observation, not the series.
        if (!atEnd() && peek() != '#') {
            throw fail("unexpected text after the " + (timestamp.isPresent() ? "timestamp" : "value"));
        }
        return new Sample(name, labels, value, timestamp);
    }

    /** Reads {@code {…}} into labels; returns the metric name, which a quoted first entry may supply. */
    private String labelSet(String name, Map<String, String> labels) {
        pos++; // '{'
        boolean first = true;
        while (true) {
            skipBlanks();
            if (atEnd()) {
                throw fail("unterminated label set: missing '}'");
            }
            if (peek() == '}') {
                pos++;
                return name;
            }
            int entryStart = pos;
            String labelName;
            if (peek() == '"') {
                String quoted = quoted();
                skipBlanks();
                if (atEnd() || peek() != '=') {
                    if (!first || name != null) {
                        throw failAt(entryStart, "a quoted metric name must be the first entry and the only name");
                    }
                    name = quoted;
                    first = false;
                    if (afterEntry()) {
                        return name;
                    }
                    continue;
                }
                labelName = quoted;
            } else {
                labelName = identifier(false, "a label name");
            }
            skipBlanks();
            expect('=', "expected '=' after label name \"" + labelName + "\"");
            skipBlanks();
            if (atEnd() || peek() != '"') {
                throw fail("expected '\"' to open the value of label \"" + labelName + "\"");
            }
            String value = quoted();
            if (labels.putIfAbsent(labelName, value) != null) {
                throw failAt(entryStart, "label \"" + labelName + "\" appears twice");
            }
            first = false;
            if (afterEntry()) {
                return name;
            }
        }
    }

    /** After a label entry: consumes ',' (returns false, more may follow) or '}' (returns true). */
    private boolean afterEntry() {
        skipBlanks();
        if (atEnd()) {
            throw fail("unterminated label set: missing '}'");
        }
        char c = line.charAt(pos++);
        if (c == ',') {
            return false;
        }
        if (c == '}') {
            return true;
        }
        pos--;
        throw fail("expected ',' or '}' after a label");
    }

    /** A double-quoted string with the format's three escapes: backslash, double quote and newline. */
    private String quoted() {
        int start = pos;
        pos++; // opening quote
        StringBuilder out = new StringBuilder();
        while (true) {
            if (atEnd()) {
                throw failAt(start, "unterminated quoted string");
            }
            char c = line.charAt(pos++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (atEnd()) {
                throw failAt(start, "unterminated quoted string");
            }
            char escaped = line.charAt(pos++);
            switch (escaped) {
                case '\\' -> out.append('\\');
                case '"' -> out.append('"');
                case 'n' -> out.append('\n');
                default -> {
                    pos -= 2;
                    throw fail("invalid escape \"\\" + escaped + "\" (only \\\\, \\\" and \\n are allowed)");
                }
            }
        }
    }

    /** Metric names may contain ':' ([a-zA-Z_:][a-zA-Z0-9_:]*), label names may not. */
    private String identifier(boolean metric, String what) {
        int start = pos;
        while (!atEnd()) {
            char c = peek();
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (metric && c == ':');
            if (!(letter || (pos > start && c >= '0' && c <= '9'))) {
                break;
            }
            pos++;
        }
        if (pos == start) {
            throw fail("expected " + what);
        }
        return line.substring(start, pos);
    }

    private double value(String token, int start) {
        switch (token.toLowerCase(Locale.ROOT)) {
            case "nan" -> {
                return Double.NaN;
            }
            case "inf", "+inf", "infinity", "+infinity" -> {
                return Double.POSITIVE_INFINITY;
            }
            case "-inf", "-infinity" -> {
                return Double.NEGATIVE_INFINITY;
            }
            default -> {
                if (!DECIMAL.matcher(token).matches()) {
                    throw failAt(start, "invalid value \"" + token + "\"");
                }
                return Double.parseDouble(token);
            }
        }
    }

    private long timestamp(String token, int start) {
        try {
            if (openMetrics) {
                if (!DECIMAL.matcher(token).matches()) {
                    throw failAt(start, "invalid timestamp \"" + token + "\" (OpenMetrics: seconds)");
                }
                return new BigDecimal(token).movePointRight(3).setScale(0, RoundingMode.HALF_EVEN).longValueExact();
            }
            if (!INTEGER.matcher(token).matches()) {
                throw failAt(start, "invalid timestamp \"" + token + "\" (must be integer milliseconds)");
            }
            return Long.parseLong(token);
        } catch (ArithmeticException | NumberFormatException e) {
            throw failAt(start, "timestamp \"" + token + "\" is out of range");
        }
    }

    private String token() {
        int start = pos;
        while (!atEnd() && !isBlank(peek())) {
            pos++;
        }
        return line.substring(start, pos);
    }

    private void expect(char c, String problem) {
        if (atEnd() || peek() != c) {
            throw fail(problem);
        }
        pos++;
    }

    private void skipBlanks() {
        while (!atEnd() && isBlank(peek())) {
            pos++;
        }
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    private boolean atEnd() {
        return pos >= line.length();
    }

    private char peek() {
        return line.charAt(pos);
    }

    private PrometheusFormatException fail(String problem) {
        return failAt(pos, problem);
    }

    private PrometheusFormatException failAt(int index, String problem) {
        return new PrometheusFormatException(lineNumber, index + 1, problem, line);
    }
}
