package dev.servebench.verdict;

import dev.servebench.metric.KernelMetric;
import dev.servebench.results.RunVerdictsJson;
import dev.servebench.results.RunVerdictsJson.Kind;
import dev.servebench.spec.AbsoluteKernelExpectation;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.KernelPoint;
import dev.servebench.spec.RelativeKernelExpectation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One judged kernel expectation and what reports it: the JUnit failure, the verdicts.json entry and the
 * console line all come from the one {@link Verdict}, as for serving expectations ({@link ExpectationReport}).
 * The message adds each figure's formula and the per-fork values it is the median of. Pure.
 */
public record KernelExpectationReport(KernelExpectation expectation, Verdict verdict, String message) {

    public KernelExpectationReport {
        Objects.requireNonNull(expectation, "expectation");
        Objects.requireNonNull(verdict, "verdict");
        Objects.requireNonNull(message, "message");
    }

    public static KernelExpectationReport judge(KernelExpectation expectation, KernelMeasurements measurements) {
        Verdict verdict = Judge.verdict(expectation, measurements);
        return new KernelExpectationReport(expectation, verdict, describe(expectation, verdict, measurements));
    }

    /**
     * The measured figures of the lines that are inconclusive on {@code measurements}, both sides of each, in
     * line order and each once: what re-measuring measures again.
     */
    public static List<KernelMeasurements.Value> undecided(List<KernelExpectation> expectations,
            KernelMeasurements measurements) {
        List<KernelMeasurements.Value> figures = new ArrayList<>();
        for (KernelExpectation expectation : expectations) {
            if (Judge.verdict(expectation, measurements).outcome() instanceof Verdict.Inconclusive) {
                KernelJudge.figure(expectation.metric(), expectation.point(), measurements).ifPresent(figures::add);
                if (expectation instanceof RelativeKernelExpectation relative) {
                    KernelJudge.figure(relative.referenceMetric(), relative.referencePoint(), measurements)
                            .ifPresent(figures::add);
                }
            }
        }
        return figures.stream().distinct().toList();
    }

    /** Empty when the test passes; not judged fails too, never passes; inconclusive is the abort's message. */
    public Optional<String> failure() {
        return VerdictText.failure(verdict, message);
    }

    public RunVerdictsJson.Entry entry() {
        return new RunVerdictsJson.Entry(expectation.displayName(), Kind.KERNEL, Optional.empty(),
                VerdictText.outcome(verdict),
                failure().orElse(message), summary());
    }

    /**
     * Measured against the limit with units and the interval it was decided on, or, not judged, the explanation
     * (it starts with why).
     */
    private String summary() {
        if (verdict.outcome() instanceof Verdict.NotJudged) {
            return verdict.explanation();
        }
        String unit = " " + verdict.unit().symbol();
        double measured = verdict.measured().getAsDouble();
        String interval = verdict.interval().map(i -> " (" + KernelUncertainty.describe(i, switch (expectation) {
            case AbsoluteKernelExpectation absolute -> unit;
            case RelativeKernelExpectation relative -> " ×";
        }) + ")").orElse("");
        return switch (expectation) {
            case AbsoluteKernelExpectation absolute -> Numbers.measured(measured) + unit + interval + ", expected "
                    + absolute.limitText();
            case RelativeKernelExpectation relative ->
                    VerdictText.relativeSummary(verdict, relative.comparison(), relative.factor(), interval);
        };
    }

    private static String describe(KernelExpectation expectation, Verdict verdict, KernelMeasurements measurements) {
        StringBuilder text = VerdictText.heading(verdict, expectation.displayName());
        Map<KernelMetric, KernelPoint> sides = new LinkedHashMap<>();
        sides.put(expectation.metric(), expectation.point());
        if (expectation instanceof RelativeKernelExpectation relative) {
            sides.putIfAbsent(relative.referenceMetric(), relative.referencePoint());
        }
        sides.keySet().forEach(metric -> text.append("  ").append(metric.id()).append(" [")
                .append(metric.unit().symbol()).append("] = ").append(metric.formula()).append(", measured by ")
                .append(metric.benchmark().className()).append('\n'));
        if (expectation instanceof RelativeKernelExpectation relative) {
            repeats(text, expectation.metric(), expectation.point(), measurements);
            repeats(text, relative.referenceMetric(), relative.referencePoint(), measurements);
        } else {
            repeats(text, expectation.metric(), expectation.point(), measurements);
        }
        return text.toString().stripTrailing();
    }

    /** The figure's point in full and its value per iteration and fork: what the median was taken over. */
    private static void repeats(StringBuilder text, KernelMetric metric, KernelPoint point,
            KernelMeasurements measurements) {
        KernelJudge.figure(metric, point, measurements).ifPresent(value -> text.append("  ").append(metric.id())
                .append(" at ").append(KernelJudge.describe(metric.benchmark(), value.parameters())).append(": median of ")
                .append(value.iterations()).append(" iterations in ").append(value.forks().size())
                .append(value.forks().size() == 1 ? " fork " : " forks ")
                .append(value.forks().stream().map(fork -> fork.stream()
                        .map(v -> String.format(Locale.ROOT, "%.4g", v)).collect(Collectors.joining(", ", "[", "]")))
                        .collect(Collectors.joining(" ")))
                .append(' ').append(metric.unit().symbol()).append(" (").append(measurements.source()).append(")\n"));
    }
}
