package dev.servebench.verdict;

import dev.servebench.baseline.ConfidenceInterval;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import dev.servebench.spec.LoadPointKey;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The one judgement of an expectation against measured values ({@link Judge}); JUnit, verdicts.json and
 * the console summary only report it. A pass or a fail is only ever given on finite numbers on both sides:
 * anything else is {@link NotJudged}, because an absent value read as NaN would pass any comparison ordered
 * by {@code Double.compare}, where NaN is larger than everything.
 *
 * @param outcome     pass, fail, inconclusive (kernel lines only) or not judged with the reason
 * @param readings    the values read, checked metric first (a relative expectation's reference second)
 * @param limit       the value the checked one was compared with: the threshold, or factor × reference;
 *                    empty when it could not be computed
 * @param unit        the unit of every reading and of the limit
 * @param explanation one line with the numbers, the limit and, when not judged, why
 * @param interval    the measurement's uncertainty the outcome was decided on: the figure's (in {@code unit}) for
 *                    an absolute kernel line, the ratio's (checked / reference, held against the factor) for a
 *                    relative one; empty for serving verdicts, which are judged on their point values
 */
public record Verdict(Outcome outcome, List<Reading> readings, OptionalDouble limit, Unit unit, String explanation,
        Optional<ConfidenceInterval> interval) {

    /** How the expectation came out. */
    public sealed interface Outcome permits Pass, Fail, Inconclusive, NotJudged {
    }

    public record Pass() implements Outcome {
    }

    public record Fail() implements Outcome {
    }

    /**
     * The interval of the measurement straddles the limit: the number is on one side, but the measurement cannot
     * tell which side it is on. Never a pass: the perf suite aborts the test with the interval.
     */
    public record Inconclusive(ConfidenceInterval interval) implements Outcome {
        public Inconclusive {
            Objects.requireNonNull(interval, "interval");
        }
    }

    /** @param reason why there was nothing to compare, e.g. "request_goodput … was not measured: …" */
    public record NotJudged(String reason) implements Outcome {
        public NotJudged {
            if (reason == null || reason.isBlank()) {
                throw new IllegalArgumentException("a verdict that was not judged needs the reason");
            }
        }
    }

    /**
     * One metric at one point, as measured; empty when it was not.
     *
     * @param metric a serving metric's or a kernel metric's id
     * @param point  a load point ({@code concurrency=8}) or a kernel parameter point ({@code backend=native,…})
     */
    public record Reading(String metric, String point, OptionalDouble value) {
        public Reading {
            Objects.requireNonNull(metric, "metric");
            Objects.requireNonNull(point, "point");
            Objects.requireNonNull(value, "value");
        }

        public Reading(MetricId metric, LoadPointKey point, OptionalDouble value) {
            this(metric.id(), point.toString(), value);
        }

        /** Present and finite: the only kind of value a pass or fail may rest on. */
        public boolean usable() {
            return value.isPresent() && Double.isFinite(value.getAsDouble());
        }
    }

    /** A verdict judged on point values alone (serving expectations, and anything not judged). */
    public Verdict(Outcome outcome, List<Reading> readings, OptionalDouble limit, Unit unit, String explanation) {
        this(outcome, readings, limit, unit, explanation, Optional.empty());
    }

    public Verdict {
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(interval, "interval");
        if (outcome instanceof Inconclusive inconclusive && !interval.equals(Optional.of(inconclusive.interval()))) {
            throw new IllegalArgumentException("an inconclusive verdict states the interval it was decided on");
        }
        readings = List.copyOf(readings);
        Objects.requireNonNull(limit, "limit");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(explanation, "explanation");
        if (readings.isEmpty()) {
            throw new IllegalArgumentException("a verdict reads at least one value");
        }
        boolean judgeable = readings.stream().allMatch(Reading::usable) && limit.isPresent()
                && Double.isFinite(limit.getAsDouble());
        if (!(outcome instanceof NotJudged) && !judgeable) {
            throw new IllegalArgumentException(outcome + " needs finite readings and limit, got " + readings
                    + " against " + limit + ": such a verdict is NotJudged");
        }
    }

    /** The checked value, as read. */
    public OptionalDouble measured() {
        return readings.getFirst().value();
    }

    public boolean passed() {
        return outcome instanceof Pass;
    }
}
