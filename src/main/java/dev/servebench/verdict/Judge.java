package dev.servebench.verdict;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import dev.servebench.spec.AbsoluteExpectation;
import dev.servebench.spec.Comparison;
import dev.servebench.spec.Expectation;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.Measurements;
import dev.servebench.spec.RelativeExpectation;
import dev.servebench.spec.BoundExpectation;
import dev.servebench.roofline.PointBound;
import dev.servebench.verdict.Verdict.Fail;
import dev.servebench.verdict.Verdict.NotJudged;
import dev.servebench.verdict.Verdict.Outcome;
import dev.servebench.verdict.Verdict.Pass;
import dev.servebench.verdict.Verdict.Reading;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Judges an expectation against measured values: the one judgement, which JUnit, verdicts.json and the
 * console only report. Values are compared by {@code Comparison.test} only, and only when both sides are
 * finite numbers; an absent, NaN or infinite value on either side, or a relative expectation's reference of
 * 0 (no multiple of 0 states a scaling claim), is {@link NotJudged} with the reason. Pure.
 */
public final class Judge {

    private Judge() {
    }

    public static Verdict verdict(Expectation expectation, Measurements measurements) {
        return switch (expectation) {
            case AbsoluteExpectation absolute -> absolute(absolute, measurements);
            case RelativeExpectation relative -> relative(relative, measurements);
            case BoundExpectation bound -> bound(bound, measurements);
        };
    }

    /** A kernel expectation against the figures of the kernel run before the suite ({@link KernelJudge}). */
    public static Verdict verdict(KernelExpectation expectation, KernelMeasurements measurements) {
        return KernelJudge.verdict(expectation, measurements);
    }

    /** Against factor × the point's bound; no bound (no model or hardware, a measured figure missing): not judged. */
    private static Verdict bound(BoundExpectation e, Measurements measurements) {
        Reading reading = read(e.metric(), e.point(), measurements);
        String name = e.metric().id() + " @ " + e.point();
        String expected = "expected " + e.limitText();
        String unit = e.unit().symbol();
        List<String> reasons = new ArrayList<>();
        unusable(name, reading, absence(e.metric(), e.point(), measurements)).ifPresent(reasons::add);
        OptionalDouble boundValue = switch (measurements.bound(e.point())) {
            case PointBound.Bounded b -> OptionalDouble.of(e.bound().value(b.decode()));
            case PointBound.Unbounded u -> {
                reasons.add(e.bound().id() + " @ " + e.point() + " is not known: " + u.reason());
                yield OptionalDouble.empty();
            }
        };
        if (!reasons.isEmpty()) {
            String reason = String.join("; ", reasons);
            return new Verdict(new NotJudged(reason), List.of(reading), OptionalDouble.empty(), e.unit(),
                    reason + "; " + expected);
        }
        double measured = reading.value().getAsDouble();
        double limit = e.factor() * boundValue.getAsDouble();
        return new Verdict(compare(e.comparison(), measured, limit), List.of(reading), OptionalDouble.of(limit), e.unit(),
                name + " = " + Numbers.measured(measured) + " " + unit + " = "
                        + Numbers.measured(measured / boundValue.getAsDouble()) + " × " + e.bound().id() + " ("
                        + Numbers.measured(boundValue.getAsDouble()) + " " + unit + "); " + expected + " ("
                        + Numbers.measured(limit) + " " + unit + ")");
    }

    private static Verdict absolute(AbsoluteExpectation e, Measurements measurements) {
        String name = e.metric().id() + " @ " + e.point();
        Reading reading = read(e.metric(), e.point(), measurements);
        return threshold(new Side(name, reading, unusable(name, reading, absence(e.metric(), e.point(), measurements))),
                e.comparison(), e.threshold(), e.unit(), e.limitText());
    }

    private static Verdict relative(RelativeExpectation e, Measurements measurements) {
        String leftName = e.metric().id() + "@" + e.point();
        String rightName = e.referenceMetric().id() + "@" + e.referencePoint();
        Reading left = read(e.metric(), e.point(), measurements);
        Reading right = read(e.referenceMetric(), e.referencePoint(), measurements);
        return ratio(new Side(leftName, left, unusable(leftName, left, absence(e.metric(), e.point(), measurements))),
                new Side(rightName, right, unusable(rightName, right,
                        absence(e.referenceMetric(), e.referencePoint(), measurements))),
                e.comparison(), e.factor(), e.unit(), e.limitText(), e.metric().id());
    }

    /**
     * One side of a comparison.
     *
     * @param name     how messages name the value, e.g. {@code output_throughput @ concurrency=8}
     * @param unusable why the value cannot be compared ({@link #unusable}); empty when it can
     */
    record Side(String name, Reading reading, Optional<String> unusable) {
    }

    /** {@code measured CMP threshold}: the one comparison of absolute expectations, serving and kernel alike. */
    static Verdict threshold(Side side, Comparison comparison, double threshold, Unit unit, String limitText) {
        String expected = "expected " + limitText;
        OptionalDouble limit = OptionalDouble.of(threshold);
        if (side.unusable().isPresent()) {
            return new Verdict(new NotJudged(side.unusable().get()), List.of(side.reading()), limit, unit,
                    side.unusable().get() + "; " + expected);
        }
        double measured = side.reading().value().getAsDouble();
        return new Verdict(compare(comparison, measured, threshold), List.of(side.reading()), limit, unit,
                side.name() + " = " + Numbers.measured(measured) + " " + unit.symbol() + ", " + expected);
    }

    /**
     * {@code left CMP factor × right}: the one comparison of relative expectations. A reference of 0 is not
     * judged: no multiple of 0 states how {@code checked} scales.
     */
    static Verdict ratio(Side left, Side right, Comparison comparison, double factor, Unit unit, String limitText,
            String checked) {
        String expected = "expected " + limitText;
        List<Reading> readings = List.of(left.reading(), right.reading());
        List<String> reasons = new ArrayList<>();
        left.unusable().ifPresent(reasons::add);
        right.unusable().ifPresent(reasons::add);
        if (!reasons.isEmpty()) {
            String reason = String.join("; ", reasons);
            return new Verdict(new NotJudged(reason), readings, OptionalDouble.empty(), unit, reason + "; " + expected);
        }
        double measured = left.reading().value().getAsDouble();
        double reference = right.reading().value().getAsDouble();
        double limit = factor * reference;
        String symbol = unit.symbol();
        String ratio = reference == 0 ? ", " : " = " + Numbers.measured(measured / reference) + " × ";
        String numbers = left.name() + " = " + Numbers.measured(measured) + " " + symbol + ratio + right.name() + " ("
                + Numbers.measured(reference) + " " + symbol + "); " + expected + " (" + Numbers.measured(limit) + " "
                + symbol + ")";
        if (reference == 0 || !Double.isFinite(limit)) {
            String reason = reference == 0
                    ? right.name() + " is 0: no multiple of it states how " + checked + " scales"
                    : Numbers.measured(factor) + " × " + right.name() + " is not a finite number";
            return new Verdict(new NotJudged(reason), readings, OptionalDouble.empty(), unit,
                    numbers + "; not judged: " + reason);
        }
        return new Verdict(compare(comparison, measured, limit), readings, OptionalDouble.of(limit), unit, numbers);
    }

    private static Outcome compare(Comparison comparison, double measured, double limit) {
        return comparison.test(measured, limit) ? new Pass() : new Fail();
    }

    private static Reading read(MetricId metric, LoadPointKey point, Measurements measurements) {
        return new Reading(metric, point, measurements.value(metric, point));
    }

    /** Why {@code metric} at {@code point} has no value, as far as the source or the metric knows. */
    private static Optional<String> absence(MetricId metric, LoadPointKey point, Measurements measurements) {
        return measurements.absence(metric, point).or(() -> knownAbsence(metric));
    }

    /** Why {@code reading} cannot be compared, or empty when it is a finite number. */
    static Optional<String> unusable(String name, Reading reading, Optional<String> whyAbsent) {
        if (reading.value().isEmpty()) {
            return Optional.of(name + " was not measured" + whyAbsent.map(w -> ": " + w).orElse(""));
        }
        double value = reading.value().getAsDouble();
        if (Double.isNaN(value)) {
            return Optional.of(name + " is NaN: the measurement gave no number");
        }
        if (Double.isInfinite(value)) {
            return Optional.of(name + " is " + Numbers.measured(value) + ": not a finite measurement");
        }
        return Optional.empty();
    }

    /** Metrics that are absent by design in some runs, and when. */
    private static Optional<String> knownAbsence(MetricId metric) {
        return metric == MetricId.REQUEST_GOODPUT ? Optional.of("no goodput SLOs were given") : Optional.empty();
    }
}
