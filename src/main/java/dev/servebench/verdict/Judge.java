package dev.servebench.verdict;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.AbsoluteExpectation;
import dev.servebench.spec.Expectation;
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

    /** Against factor × the point's bound; no bound (no model or hardware, a measured figure missing): not judged. */
    private static Verdict bound(BoundExpectation e, Measurements measurements) {
        Reading reading = read(e.metric(), e.point(), measurements);
        String name = e.metric().id() + " @ " + e.point();
        String expected = "expected " + e.limitText();
        String unit = e.unit().symbol();
        List<String> reasons = new ArrayList<>();
        unusable(name, reading, measurements).ifPresent(reasons::add);
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
        return new Verdict(compare(e, measured, limit), List.of(reading), OptionalDouble.of(limit), e.unit(),
                name + " = " + Numbers.measured(measured) + " " + unit + " = "
                        + Numbers.measured(measured / boundValue.getAsDouble()) + " × " + e.bound().id() + " ("
                        + Numbers.measured(boundValue.getAsDouble()) + " " + unit + "); " + expected + " ("
                        + Numbers.measured(limit) + " " + unit + ")");
    }

    private static Verdict absolute(AbsoluteExpectation e, Measurements measurements) {
        Reading reading = read(e.metric(), e.point(), measurements);
        String name = e.metric().id() + " @ " + e.point();
        String expected = "expected " + e.limitText();
        String unit = e.unit().symbol();
        OptionalDouble limit = OptionalDouble.of(e.threshold());
        Optional<String> unusable = unusable(name, reading, measurements);
        if (unusable.isPresent()) {
            return new Verdict(new NotJudged(unusable.get()), List.of(reading), limit, e.unit(),
                    unusable.get() + "; " + expected);
        }
        double measured = reading.value().getAsDouble();
        return new Verdict(compare(e, measured, e.threshold()), List.of(reading), limit, e.unit(),
                name + " = " + Numbers.measured(measured) + " " + unit + ", " + expected);
    }

    private static Verdict relative(RelativeExpectation e, Measurements measurements) {
        Reading left = read(e.metric(), e.point(), measurements);
        Reading right = read(e.referenceMetric(), e.referencePoint(), measurements);
        String leftName = e.metric().id() + "@" + e.point();
        String rightName = e.referenceMetric().id() + "@" + e.referencePoint();
        String expected = "expected " + e.limitText();
        List<String> reasons = new ArrayList<>();
        unusable(leftName, left, measurements).ifPresent(reasons::add);
        unusable(rightName, right, measurements).ifPresent(reasons::add);
        if (!reasons.isEmpty()) {
            String reason = String.join("; ", reasons);
            return new Verdict(new NotJudged(reason), List.of(left, right), OptionalDouble.empty(), e.unit(),
                    reason + "; " + expected);
        }
        double measured = left.value().getAsDouble();
        double reference = right.value().getAsDouble();
        double limit = e.factor() * reference;
        String unit = e.unit().symbol();
        String ratio = reference == 0 ? ", " : " = " + Numbers.measured(measured / reference) + " × ";
        String numbers = leftName + " = " + Numbers.measured(measured) + " " + unit + ratio + rightName + " ("
                + Numbers.measured(reference) + " " + unit + "); " + expected + " (" + Numbers.measured(limit) + " "
                + unit + ")";
        if (reference == 0 || !Double.isFinite(limit)) {
            String reason = reference == 0
                    ? rightName + " is 0: no multiple of it states how " + e.metric().id() + " scales"
                    : Numbers.measured(e.factor()) + " × " + rightName + " is not a finite number";
            return new Verdict(new NotJudged(reason), List.of(left, right), OptionalDouble.empty(), e.unit(),
                    numbers + "; not judged: " + reason);
        }
        return new Verdict(compare(e, measured, limit), List.of(left, right), OptionalDouble.of(limit), e.unit(),
                numbers);
    }

    private static Outcome compare(Expectation e, double measured, double limit) {
        return e.comparison().test(measured, limit) ? new Pass() : new Fail();
    }

    private static Reading read(MetricId metric, LoadPointKey point, Measurements measurements) {
        return new Reading(metric, point, measurements.value(metric, point));
    }

    /** Why {@code reading} cannot be compared, or empty when it is a finite number. */
    private static Optional<String> unusable(String name, Reading reading, Measurements measurements) {
        if (reading.value().isEmpty()) {
            Optional<String> why = measurements.absence(reading.metric(), reading.point())
                    .or(() -> knownAbsence(reading.metric()));
            return Optional.of(name + " was not measured" + why.map(w -> ": " + w).orElse(""));
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
