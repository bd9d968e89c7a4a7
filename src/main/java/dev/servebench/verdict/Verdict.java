package dev.servebench.verdict;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import dev.servebench.spec.LoadPointKey;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * The one judgement of an expectation against measured values ({@link Judge}); JUnit, verdicts.json and
 * the console summary only report it. A pass or a fail is only ever given on finite numbers on both sides:
 * anything else is {@link NotJudged}, because an absent value read as NaN would pass any comparison ordered
 * by {@code Double.compare}, where NaN is larger than everything.
 *
 * @param outcome     pass, fail, or not judged with the reason
 * @param readings    the values read, checked metric first (a relative expectation's reference second)
 * @param limit       the value the checked one was compared with: the threshold, or factor × reference;
 *                    empty when it could not be computed
 * @param unit        the unit of every reading and of the limit
 * @param explanation one line with the numbers, the limit and, when not judged, why
 */
public record Verdict(Outcome outcome, List<Reading> readings, OptionalDouble limit, Unit unit, String explanation) {

    /** How the expectation came out. */
    public sealed interface Outcome permits Pass, Fail, NotJudged {
    }

    public record Pass() implements Outcome {
    }

    public record Fail() implements Outcome {
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

    public Verdict {
        Objects.requireNonNull(outcome, "outcome");
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
