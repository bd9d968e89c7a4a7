package dev.servebench.report;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.View;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The console summary a perf-suite run ends with, for someone scanning a Jenkins log: per load point the
 * SGLang headline numbers (median over repeats, as the expectations read them), then every verdict of that
 * point one line each, failures and not-judged first; relative expectations, then kernel expectations last. The full messages are in
 * verdicts.json and the JUnit report; this only has to say what was measured and what it was held against.
 * Pure.
 */
public final class RunSummary {

    /** The headline ({@link View#RUN_HEADLINE}), in the reference tools' labels, two per line. */
    public static final List<MetricId> HEADLINE = MetricId.inView(View.RUN_HEADLINE);

    private static final int WIDTH = 100;

    /** Longer details are cut: a server's error body or a list of broken conditions is verdicts.json's to keep. */
    static final int MAX_DETAIL = 160;

    /** In the order lines are listed: what needs a look first. */
    public enum Outcome {
        FAIL("FAIL"), INCONCLUSIVE("INCONCLUSIVE"), NOT_JUDGED("NOT JUDGED"), INVALID("INVALID"), PASS("pass");

        private final String label;

        Outcome(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * One verdict.
     *
     * @param detail one line: measured vs limit with units, or why it was not judged
     */
    public record Line(Outcome outcome, String name, String detail) {
        public Line {
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(detail, "detail");
            if (detail.contains("\n") || name.contains("\n")) {
                throw new IllegalArgumentException("a summary line is one line: " + name + ": " + detail);
            }
        }
    }

    /**
     * One load point.
     *
     * @param repeats  measurements the headline is the median of; 0 when the point was not measured
     * @param headline     values of {@link #HEADLINE} metrics; a missing key was not measured
     * @param speedOfLight the point's bound, its limiting term and the measured fractions, and the GPUs' energy
     *                     beside it, one line; empty when the spec has no model and hardware and no GPU was
     *                     sampled
     */
    public record Point(String name, int repeats, Map<MetricId, Double> headline, Optional<String> speedOfLight,
                        List<Line> verdicts) {
        public Point(String name, int repeats, Map<MetricId, Double> headline, List<Line> verdicts) {
            this(name, repeats, headline, Optional.empty(), verdicts);
        }

        public Point {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(speedOfLight, "speedOfLight");
            if (speedOfLight.filter(s -> s.contains("\n")).isPresent()) {
                throw new IllegalArgumentException("the speed-of-light line is one line: " + speedOfLight.get());
            }
            headline = Map.copyOf(headline);
            verdicts = List.copyOf(verdicts);
            if (repeats < 0) {
                throw new IllegalArgumentException("repeats (" + repeats + ") must be >= 0");
            }
            if (!HEADLINE.containsAll(headline.keySet())) {
                throw new IllegalArgumentException("not headline metrics: " + headline.keySet().stream()
                        .filter(m -> !HEADLINE.contains(m)).map(MetricId::id).toList());
            }
        }
    }

    private RunSummary() {
    }

    /** @param kernels the spec's kernel expectations, judged on the kernel benchmarks of the same build */
    public static String render(String spec, List<Point> points, List<Line> acrossPoints, List<Line> kernels) {
        List<Line> all = Stream.of(points.stream().flatMap(p -> p.verdicts().stream()), acrossPoints.stream(),
                kernels.stream()).flatMap(s -> s).toList();
        StringBuilder out = new StringBuilder("\n");
        out.append(center(" servebench perf run: " + spec + " ", '=', WIDTH)).append('\n');
        out.append(counts(all)).append('\n');
        for (Point point : points) {
            String title = point.repeats() == 0 ? " " + point.name() + ": not measured "
                    : " " + point.name() + (point.repeats() == 1 ? " " : " (median of " + point.repeats() + " repeats) ");
            out.append(center(title, '-', WIDTH)).append('\n');
            if (point.repeats() > 0) {
                for (int i = 0; i < HEADLINE.size(); i += 2) {
                    String right = i + 1 < HEADLINE.size() ? cell(point, HEADLINE.get(i + 1)) : "";
                    out.append((cell(point, HEADLINE.get(i)) + "   " + right).stripTrailing()).append('\n');
                }
            }
            point.speedOfLight().ifPresent(line -> out.append("Speed of light: ").append(line).append('\n'));
            lines(out, point.verdicts(), " @ " + point.name());
        }
        if (!acrossPoints.isEmpty()) {
            out.append(center(" across load points ", '-', WIDTH)).append('\n');
            lines(out, acrossPoints, "");
        }
        if (!kernels.isEmpty()) {
            out.append(center(" kernels (same-run baselines) ", '-', WIDTH)).append('\n');
            lines(out, kernels, "");
        }
        out.append("=".repeat(WIDTH)).append('\n');
        return out.toString();
    }

    private static String counts(List<Line> lines) {
        Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);
        lines.forEach(line -> counts.merge(line.outcome(), 1L, Long::sum));
        return lines.size() + " verdicts: " + Stream.of(Outcome.values())
                .map(o -> counts.getOrDefault(o, 0L) + " " + o.label().toLowerCase(Locale.ROOT))
                .collect(Collectors.joining(", "));
    }

    /** Worst first, then as judged; the point's name is left off names that end with it (the heading says it). */
    private static void lines(StringBuilder out, List<Line> lines, String pointSuffix) {
        List<Line> sorted = new ArrayList<>(lines);
        sorted.sort(Comparator.comparing(Line::outcome));
        for (Line line : sorted) {
            String name = !pointSuffix.isEmpty() && line.name().endsWith(pointSuffix)
                    ? line.name().substring(0, line.name().length() - pointSuffix.length()) : line.name();
            String detail = line.detail().length() <= MAX_DETAIL ? line.detail()
                    : line.detail().substring(0, MAX_DETAIL - 1) + "…";
            out.append(String.format(Locale.ROOT, "  %-10s %s: %s", line.outcome().label(), name, detail))
                    .append('\n');
        }
    }

    private static String cell(Point point, MetricId metric) {
        Double value = point.headline().get(metric);
        String text = value == null ? "not measured"
                : metric.wholeNumber() ? Long.toString(Math.round(value)) : Decimal.fixed(value, 2);
        return String.format(Locale.ROOT, "%-38s %-10s", label(metric), text);
    }

    private static String center(String text, char fill, int width) {
        int pad = Math.max(0, width - text.length());
        return String.valueOf(fill).repeat(pad / 2) + text + String.valueOf(fill).repeat(pad - pad / 2);
    }

    /** SGLang's label where SGLang prints the metric, else vLLM's (failed requests: SGLang prints none). */
    static String label(MetricId metric) {
        return metric.sglangLabel().or(metric::vllmLabel).orElseThrow(
                () -> new IllegalStateException(metric.id() + " has no reference tool's label"));
    }
}
