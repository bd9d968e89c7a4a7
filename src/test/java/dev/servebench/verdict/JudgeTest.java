package dev.servebench.verdict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import dev.servebench.spec.AbsoluteExpectation;
import dev.servebench.spec.Comparison;
import dev.servebench.spec.Expectation;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.Measurements;
import dev.servebench.spec.RelativeExpectation;
import dev.servebench.spec.SourcePosition;
import dev.servebench.verdict.Verdict.Fail;
import dev.servebench.verdict.Verdict.NotJudged;
import dev.servebench.verdict.Verdict.Pass;
import dev.servebench.verdict.Verdict.Reading;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The one judgement: pass and fail only on finite numbers, everything else not judged with the reason. */
class JudgeTest {

    private static final SourcePosition AT = new SourcePosition(Path.of("s.yaml"), 12, 5);
    private static final LoadPointKey C1 = LoadPointKey.concurrency(1);
    private static final LoadPointKey C4 = LoadPointKey.concurrency(4);
    private static final LoadPointKey C64 = LoadPointKey.concurrency(64);
    private static final LoadPointKey C256 = LoadPointKey.concurrency(256);

    /** Absent, NaN, +∞ and -∞: what a measurement can give that is not a number to compare. */
    private static final List<OptionalDouble> UNUSABLE = List.of(OptionalDouble.empty(), OptionalDouble.of(Double.NaN),
            OptionalDouble.of(Double.POSITIVE_INFINITY), OptionalDouble.of(Double.NEGATIVE_INFINITY));

    private static AbsoluteExpectation absolute(MetricId metric, Comparison comparison, double threshold) {
        return new AbsoluteExpectation(metric, comparison, threshold, metric.unit(), C256, AT);
    }

    private static RelativeExpectation scaling(Comparison comparison, double factor) {
        return new RelativeExpectation(MetricId.OUTPUT_THROUGHPUT, C256, comparison, factor, MetricId.OUTPUT_THROUGHPUT,
                C64, AT);
    }

    /** {@code value} for every metric at C256, {@code reference} at C64, nothing elsewhere. */
    private static Measurements at(OptionalDouble value, OptionalDouble reference) {
        return (metric, point) -> point.equals(C256) ? value : point.equals(C64) ? reference : OptionalDouble.empty();
    }

    private static Verdict absolute(AbsoluteExpectation expectation, double measured) {
        return Judge.verdict(expectation, at(OptionalDouble.of(measured), OptionalDouble.empty()));
    }

    private static Verdict relative(RelativeExpectation expectation, double measured, double reference) {
        return Judge.verdict(expectation, at(OptionalDouble.of(measured), OptionalDouble.of(reference)));
    }

    @Test
    void absolutePassesOnItsSideOfTheThresholdIncludingTheBoundaryForNonStrictComparisons() {
        AbsoluteExpectation atLeast = absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 600);
        assertThat(absolute(atLeast, 600).outcome()).isInstanceOf(Pass.class);
        assertThat(absolute(atLeast, 599.99).outcome()).isInstanceOf(Fail.class);
        assertThat(absolute(absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.GREATER_THAN, 600), 600).outcome())
                .isInstanceOf(Fail.class);
        assertThat(absolute(absolute(MetricId.P99_TTFT_MS, Comparison.AT_MOST, 2000), 2000).outcome())
                .isInstanceOf(Pass.class);
        assertThat(absolute(absolute(MetricId.P99_TTFT_MS, Comparison.LESS_THAN, 2000), 2000).outcome())
                .isInstanceOf(Fail.class);
        assertThat(absolute(absolute(MetricId.P99_TTFT_MS, Comparison.LESS_THAN, 2000), 1999).outcome())
                .isInstanceOf(Pass.class);
    }

    @Test
    void absoluteVerdictStatesTheNumbers() {
        Verdict failed = absolute(absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 1000), 622.41234);
        assertThat(failed).isEqualTo(new Verdict(new Fail(),
                List.of(new Reading(MetricId.OUTPUT_THROUGHPUT, C256, OptionalDouble.of(622.41234))),
                OptionalDouble.of(1000), Unit.TOKENS_PER_SECOND,
                "output_throughput @ concurrency=256 = 622.4123 tok/s, expected ≥ 1000 tok/s"));

        Verdict missing = Judge.verdict(absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 1000),
                (metric, point) -> OptionalDouble.empty());
        assertThat(missing.passed()).isFalse();
        assertThat(missing.outcome()).isEqualTo(new NotJudged("output_throughput @ concurrency=256 was not measured"));
        assertThat(missing.explanation()).isEqualTo("output_throughput @ concurrency=256 was not measured; expected ≥"
                + " 1000 tok/s");
    }

    @Test
    void relativeComparesWithFactorTimesTheReference() {
        RelativeExpectation expectation = scaling(Comparison.AT_LEAST, 2.5);
        assertThat(relative(expectation, 250, 100).outcome()).isInstanceOf(Pass.class);
        assertThat(relative(expectation, 249.9, 100).outcome()).isInstanceOf(Fail.class);
        assertThat(relative(scaling(Comparison.GREATER_THAN, 2.5), 250, 100).outcome()).isInstanceOf(Fail.class);

        Verdict verdict = relative(expectation, 1500, 650);
        assertThat(verdict.outcome()).isInstanceOf(Fail.class);
        assertThat(verdict.limit()).hasValue(1625);
        assertThat(verdict.readings()).extracting(Reading::value)
                .containsExactly(OptionalDouble.of(1500), OptionalDouble.of(650));
        assertThat(verdict.explanation()).isEqualTo("output_throughput@concurrency=256 = 1500 tok/s = 2.3077 ×"
                + " output_throughput@concurrency=64 (650 tok/s); expected ≥ 2.5 × output_throughput@concurrency=64"
                + " (1625 tok/s)");
        assertThat(relative(expectation, 10, 0).explanation()).startsWith("output_throughput@concurrency=256 = 10"
                + " tok/s, output_throughput@concurrency=64 (0 tok/s);");
    }

    @Test
    void relativeReadsBothSidesFromMeasurements() {
        Map<LoadPointKey, Double> throughput = Map.of(C64, 400.0, C256, 1000.0);
        Measurements measured = (metric, point) -> metric == MetricId.OUTPUT_THROUGHPUT && throughput.containsKey(point)
                ? OptionalDouble.of(throughput.get(point)) : OptionalDouble.empty();

        assertThat(Judge.verdict(scaling(Comparison.AT_LEAST, 2.5), measured).passed()).isTrue();
        assertThat(Judge.verdict(scaling(Comparison.AT_LEAST, 2.6), measured).outcome()).isInstanceOf(Fail.class);
        RelativeExpectation fromSingleStream = new RelativeExpectation(MetricId.OUTPUT_THROUGHPUT, C256,
                Comparison.AT_LEAST, 2, MetricId.OUTPUT_THROUGHPUT, C1, AT);
        Verdict unmeasured = Judge.verdict(fromSingleStream, measured);
        assertThat(unmeasured.passed()).isFalse();
        assertThat(unmeasured.outcome()).isInstanceOf(NotJudged.class);
        assertThat(unmeasured.explanation()).isEqualTo("output_throughput@concurrency=1 was not measured; expected ≥ 2"
                + " × output_throughput@concurrency=1");
    }

    @Test
    void anUnusableValueOnEitherSideIsNotJudgedUnderEveryOperator() {
        OptionalDouble fine = OptionalDouble.of(100);
        for (Comparison comparison : Comparison.values()) {
            for (OptionalDouble bad : UNUSABLE) {
                // Thresholds at both ends: NaN and ±∞ must not pass against a small or a large limit.
                for (double threshold : new double[] {0, 1e12}) {
                    Expectation e = absolute(MetricId.OUTPUT_THROUGHPUT, comparison, threshold);
                    assertThat(Judge.verdict(e, at(bad, fine)).outcome()).as("%s with %s", e.displayName(), bad)
                            .isInstanceOf(NotJudged.class);
                }
                for (double factor : new double[] {1e-9, 1e9}) {
                    RelativeExpectation e = scaling(comparison, factor);
                    assertThat(Judge.verdict(e, at(bad, fine)).outcome()).as("%s, measured %s", e.displayName(), bad)
                            .isInstanceOf(NotJudged.class);
                    assertThat(Judge.verdict(e, at(fine, bad)).outcome()).as("%s, reference %s", e.displayName(), bad)
                            .isInstanceOf(NotJudged.class);
                    assertThat(Judge.verdict(e, at(bad, bad)).outcome()).as("%s, both %s", e.displayName(), bad)
                            .isInstanceOf(NotJudged.class);
                }
            }
        }
    }

    @Test
    void aReferenceOfZeroOrAnOverflowingLimitIsNotJudged() {
        for (Comparison comparison : Comparison.values()) {
            Verdict zero = relative(scaling(comparison, 2), 10, 0);
            assertThat(zero.outcome()).as(comparison.symbol()).isEqualTo(new NotJudged("output_throughput@concurrency=64"
                    + " is 0: no multiple of it states how output_throughput scales"));
            assertThat(zero.explanation()).endsWith("; not judged: output_throughput@concurrency=64 is 0: no multiple"
                    + " of it states how output_throughput scales");
            assertThat(relative(scaling(comparison, 1e300), 10, 1e300).outcome()).as(comparison.symbol())
                    .isInstanceOf(NotJudged.class);
        }
    }

    @Test
    void theIssuesGoodputWithoutSlosIsNotJudgedWithTheReason() {
        AbsoluteExpectation goodput = new AbsoluteExpectation(MetricId.REQUEST_GOODPUT, Comparison.GREATER_THAN, 1000000,
                Unit.REQUESTS_PER_SECOND, C4, AT);
        Measurements withoutGoodput = (metric, point) -> metric == MetricId.REQUEST_GOODPUT ? OptionalDouble.empty()
                : OptionalDouble.of(42);

        Verdict verdict = Judge.verdict(goodput, withoutGoodput);

        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.outcome()).isEqualTo(new NotJudged("request_goodput @ concurrency=4 was not measured:"
                + " no goodput SLOs were given"));
        assertThat(verdict.explanation()).isEqualTo("request_goodput @ concurrency=4 was not measured: no goodput SLOs"
                + " were given; expected > 1000000 req/s");
        // The same value as NaN, as a Double.compare-based assertion would have seen it.
        assertThat(Judge.verdict(goodput, (metric, point) -> OptionalDouble.of(Double.NaN)).outcome())
                .isEqualTo(new NotJudged("request_goodput @ concurrency=4 is NaN: the measurement gave no number"));
    }

    @Test
    void aSourceThatKnowsWhyAValueIsAbsentSaysSo() {
        Measurements unmeasuredPoint = new Measurements() {
            @Override
            public OptionalDouble value(MetricId metric, LoadPointKey point) {
                return OptionalDouble.empty();
            }

            @Override
            public Optional<String> absence(MetricId metric, LoadPointKey point) {
                return Optional.of("load point " + point + " could not be measured: connection refused");
            }
        };
        assertThat(Judge.verdict(absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 1), unmeasuredPoint)
                .outcome()).isEqualTo(new NotJudged("output_throughput @ concurrency=256 was not measured: load point"
                + " concurrency=256 could not be measured: connection refused"));
    }

    @Test
    void aPassOrFailCannotBeBuiltOnAValueThatIsNotFinite() {
        List<Reading> nan = List.of(new Reading(MetricId.OUTPUT_THROUGHPUT, C256, OptionalDouble.of(Double.NaN)));
        assertThatIllegalArgumentException().isThrownBy(() -> new Verdict(new Pass(), nan, OptionalDouble.of(1),
                Unit.TOKENS_PER_SECOND, "x")).withMessageContaining("NotJudged");
        List<Reading> fine = List.of(new Reading(MetricId.OUTPUT_THROUGHPUT, C256, OptionalDouble.of(1)));
        assertThatIllegalArgumentException().isThrownBy(() -> new Verdict(new Fail(), fine, OptionalDouble.empty(),
                Unit.TOKENS_PER_SECOND, "x"));
        assertThatIllegalArgumentException().isThrownBy(() -> new NotJudged(" "));
        assertThat(new Verdict(new NotJudged("why"), nan, OptionalDouble.empty(), Unit.TOKENS_PER_SECOND, "x")
                .passed()).isFalse();
    }
}
