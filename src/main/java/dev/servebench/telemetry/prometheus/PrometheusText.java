package dev.servebench.telemetry.prometheus;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Parser for the Prometheus text exposition format (version 0.0.4), tolerant of OpenMetrics 1.0 text.
 *
 * <p>Accepted: {@code # HELP} / {@code # TYPE} lines (checked: a TYPE names a metric and a known type),
 * any other {@code #} comment, blank lines, CRLF line ends, label values with the escapes {@code \\},
 * {@code \"} and {@code \n}, the values {@code NaN}, {@code +Inf}, {@code -Inf} (any case, Go's
 * spellings), optional timestamps, OpenMetrics exemplars (skipped) and a closing {@code # EOF}.
 *
 * <p>Timestamps: when the scrape ends with {@code # EOF} it is OpenMetrics, whose timestamps are seconds;
 * otherwise they are the classic format's integer milliseconds. Either way {@link Sample#timestampMillis}
 * is milliseconds.
 *
 * <p>Anything else is rejected with a {@link PrometheusFormatException} naming the line and column: a
 * scrape we cannot read exactly must not silently become a wrong token count.
 */
public final class PrometheusText {

    /** The classic format's types plus OpenMetrics' extra ones. */
    private static final Set<String> TYPES = Set.of("counter", "gauge", "histogram", "summary", "untyped",
            "unknown", "info", "stateset", "gaugehistogram");

    private PrometheusText() {}

    /** Every sample of the scrape, in order. */
    public static List<Sample> parse(String text) {
        Objects.requireNonNull(text, "text");
        String[] lines = text.split("\n", -1);
        boolean openMetrics = endsWithEof(lines);
        List<Sample> samples = new ArrayList<>();
        boolean eofSeen = false;
        for (int i = 0; i < lines.length; i++) {
            int number = i + 1;
            String line = withoutCarriageReturn(lines[i]);
            String content = line.strip();
            if (content.isEmpty()) {
                continue;
            }
            if (eofSeen) {
                throw new PrometheusFormatException(number, 1, "text after \"# EOF\"", line);
            }
            if (content.charAt(0) == '#') {
                eofSeen = content.equals("# EOF");
                checkComment(number, line, content);
                continue;
            }
            samples.add(new SampleLineParser(line, number, openMetrics).parse());
        }
        return List.copyOf(samples);
    }

    private static boolean endsWithEof(String[] lines) {
        for (int i = lines.length - 1; i >= 0; i--) {
            String content = withoutCarriageReturn(lines[i]).strip();
            if (!content.isEmpty()) {
                return content.equals("# EOF");
            }
        }
        return false;
    }

    /** HELP and TYPE must name a metric, TYPE must give a known type; other comments are free text. */
    private static void checkComment(int number, String line, String content) {
        if (!content.startsWith("# ")) {
            return;
        }
        String[] words = content.substring(2).strip().split("[ \t]+", 3);
        String keyword = words[0];
        if (!keyword.equals("HELP") && !keyword.equals("TYPE")) {
            return;
        }
        int column = line.indexOf(keyword) + 1;
        if (words.length < 2 || words[1].isEmpty()) {
            throw new PrometheusFormatException(number, column, "# " + keyword + " without a metric name", line);
        }
        if (!isMetricName(words[1]) && !words[1].startsWith("\"")) {
            throw new PrometheusFormatException(number, line.indexOf(words[1], column) + 1,
                    "invalid metric name \"" + words[1] + "\"", line);
        }
        if (keyword.equals("TYPE")) {
            if (words.length < 3) {
                throw new PrometheusFormatException(number, column, "# TYPE without a type", line);
            }
            String type = words[2].strip();
            if (!TYPES.contains(type)) {
                throw new PrometheusFormatException(number, line.lastIndexOf(type) + 1,
                        "unknown metric type \"" + type + "\" (expected one of " + String.join(", ", TYPES.stream()
                                .sorted().toList()) + ")", line);
            }
        }
    }

    private static boolean isMetricName(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
            if (!(letter || (i > 0 && c >= '0' && c <= '9'))) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    private static String withoutCarriageReturn(String line) {
        return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
    }
}
