package dev.servebench.verdict;

import dev.servebench.baseline.ConfidenceInterval;
import dev.servebench.baseline.KernelIntervals;
import dev.servebench.spec.AbsoluteKernelExpectation;
import dev.servebench.spec.Comparison;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.RelativeKernelExpectation;
import dev.servebench.verdict.Verdict.Fail;
import dev.servebench.verdict.Verdict.Inconclusive;
import dev.servebench.verdict.Verdict.NotJudged;
import dev.servebench.verdict.Verdict.Outcome;
import dev.servebench.verdict.Verdict.Pass;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A kernel line decided on its measurement's uncertainty ({@link KernelIntervals}) rather than on its point
 * value alone: the interval entirely on the passing side of the limit passes, entirely on the failing side
 * fails, and one that straddles it is {@link Inconclusive}. A figure whose iterations give no interval is not
 * judged. Pure.
 */
final class KernelUncertainty {

    private KernelUncertainty() {
    }

    /**
     * @param point     the verdict on the point values (pass or fail): its readings, limit and explanation
     * @param checked   the checked figure as measured
     * @param reference the reference figure of a relative line; empty for an absolute one
     */
    static Verdict judge(KernelExpectation expectation, Verdict point, KernelMeasurements.Value checked,
            Optional<KernelMeasurements.Value> reference) {
        double[] checkedSamples = samples(checked);
        double[] referenceSamples = reference.map(KernelUncertainty::samples).orElse(new double[0]);
        List<String> reasons = new ArrayList<>();
        KernelIntervals.unusable(checkedSamples).ifPresent(why -> reasons.add(expectation.metric().id() + "@"
                + expectation.point() + " has " + why));
        if (expectation instanceof RelativeKernelExpectation relative) {
            KernelIntervals.unusable(referenceSamples).ifPresent(why -> reasons.add(relative.referenceMetric().id()
                    + "@" + relative.referencePoint() + " has " + why));
        }
        if (!reasons.isEmpty()) {
            String reason = String.join("; ", reasons) + " (no interval, so no verdict: a point value alone is a"
                    + " coin toss near the limit)";
            return new Verdict(new NotJudged(reason), point.readings(), point.limit(), point.unit(),
                    point.explanation() + "; not judged: " + reason);
        }
        ConfidenceInterval interval;
        double limit;
        String scale;
        String stated;
        Comparison comparison = expectation.comparison();
        switch (expectation) {
            case AbsoluteKernelExpectation absolute -> {
                interval = KernelIntervals.figure(checked.value(), checkedSamples);
                limit = absolute.threshold();
                scale = " " + point.unit().symbol();
                stated = "";
            }
            case RelativeKernelExpectation relative -> {
                interval = KernelIntervals.ratio(checked.value(), checkedSamples, reference.orElseThrow().value(),
                        referenceSamples);
                limit = relative.factor();
                scale = " ×";
                stated = "ratio " + Numbers.measured(checked.value() / reference.orElseThrow().value()) + " × ";
            }
        }
        boolean lowerHolds = comparison.test(interval.lower(), limit);
        boolean upperHolds = comparison.test(interval.upper(), limit);
        Outcome outcome = lowerHolds && upperHolds ? new Pass()
                : !lowerHolds && !upperHolds ? new Fail() : new Inconclusive(interval);
        String text = point.explanation() + "; " + stated + "(" + describe(interval, scale)
                + (outcome instanceof Inconclusive ? ", which straddles " + comparison.symbol() + " "
                        + Numbers.measured(limit) + scale : "") + ")";
        return new Verdict(outcome, point.readings(), point.limit(), point.unit(), text, Optional.of(interval));
    }

    /** {@code 95 % interval 0.74–0.88 ×}: how messages and summaries name an interval. */
    static String describe(ConfidenceInterval interval, String scale) {
        return String.format(Locale.ROOT, "%s %% interval %s–%s%s", Numbers.measured(interval.confidence() * 100),
                Numbers.measured(interval.lower()), Numbers.measured(interval.upper()), scale);
    }

    private static double[] samples(KernelMeasurements.Value value) {
        return value.forks().stream().flatMap(List::stream).mapToDouble(Double::doubleValue).toArray();
    }
}
