package dev.servebench.verdict;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.View;
import dev.servebench.spec.Expectation;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.Measurements;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The text a failing (or passing, or not judged) expectation reports: the verdict's numbers, then each metric's
 * definition (formula, token basis, unit), then the sibling throughputs at every point involved, so an
 * output-token figure can never be mistaken for a total-token one, and an input count estimated from words
 * for a measured one. Pure.
 */
public final class ExpectationMessage {

    /** The throughputs always shown side by side: the seeds' "3,740 tok/s" was the total, not the output. */
    static final List<MetricId> SIBLINGS = MetricId.inView(View.THROUGHPUT_TABLE);

    private ExpectationMessage() {
    }

    public static String describe(Expectation expectation, Verdict verdict, Measurements measurements) {
        StringBuilder text = VerdictText.heading(verdict, expectation.displayName());
        Set<MetricId> metrics = new LinkedHashSet<>();
        metrics.add(expectation.metric());
        if (expectation instanceof dev.servebench.spec.RelativeExpectation relative) {
            metrics.add(relative.referenceMetric());
        }
        for (MetricId metric : metrics) {
            text.append("  ").append(metric.id()).append(" [").append(metric.unit().symbol()).append("] = ")
                    .append(metric.formula()).append("; tokens: ").append(metric.tokenBasis().description())
                    .append('\n');
        }
        for (LoadPointKey point : expectation.points()) {
            text.append("  at ").append(point).append(':');
            for (MetricId sibling : SIBLINGS) {
                text.append(' ').append(sibling.id()).append(" = ")
                        .append(format(measurements.value(sibling, point))).append(' ')
                        .append(sibling.unit().symbol()).append(sibling == SIBLINGS.getLast() ? "" : ",");
            }
            text.append('\n');
            for (MetricId metric : metrics) {
                measurements.estimate(metric, point).ifPresent(why -> text.append("  at ").append(point).append(": ")
                        .append(metric.id()).append(" is an estimate: ").append(why).append('\n'));
            }
        }
        return text.toString().stripTrailing();
    }

    private static String format(OptionalDouble value) {
        if (value.isEmpty()) {
            return "not measured";
        }
        double v = value.getAsDouble();
        return String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%,.1f" : "%.3f", v);
    }
}
