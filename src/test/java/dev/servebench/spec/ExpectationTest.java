package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import java.nio.file.Path;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Expectations evaluated against measured values, and how they are named. */
class ExpectationTest {

    private static final SourcePosition AT = new SourcePosition(Path.of("s.yaml"), 12, 5);
    private static final LoadPointKey C1 = LoadPointKey.concurrency(1);
    private static final LoadPointKey C64 = LoadPointKey.concurrency(64);
    private static final LoadPointKey C256 = LoadPointKey.concurrency(256);

    private static AbsoluteExpectation absolute(MetricId metric, Comparison comparison, double threshold) {
        return new AbsoluteExpectation(metric, comparison, threshold, metric.unit(), C256, AT);
    }

    private static RelativeExpectation scaling(Comparison comparison, double factor) {
        return new RelativeExpectation(MetricId.OUTPUT_THROUGHPUT, C256, comparison, factor, MetricId.OUTPUT_THROUGHPUT,
                C64, AT);
    }

    @Test
    void absoluteHoldsOnItsSideOfTheThresholdIncludingTheBoundaryForNonStrictComparisons() {
        AbsoluteExpectation atLeast = absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 600);
        assertThat(atLeast.holds(600)).isTrue();
        assertThat(atLeast.holds(599.99)).isFalse();
        assertThat(absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.GREATER_THAN, 600).holds(600)).isFalse();
        assertThat(absolute(MetricId.P99_TTFT_MS, Comparison.AT_MOST, 2000).holds(2000)).isTrue();
        assertThat(absolute(MetricId.P99_TTFT_MS, Comparison.LESS_THAN, 2000).holds(2000)).isFalse();
        assertThat(absolute(MetricId.P99_TTFT_MS, Comparison.LESS_THAN, 2000).holds(1999)).isTrue();
    }

    @Test
    void notANumberNeverHolds() {
        for (Comparison comparison : Comparison.values()) {
            assertThat(comparison.test(Double.NaN, 1)).isFalse();
            assertThat(comparison.test(1, Double.NaN)).isFalse();
        }
    }

    @Test
    void absoluteVerdictStatesTheNumbers() {
        Verdict failed = absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 1000).evaluate(622.41234);
        assertThat(failed).isEqualTo(new Verdict(false, 622.41234, 1000,
                "output_throughput @ concurrency=256 = 622.4123 tok/s, expected ≥ 1000 tok/s"));

        Verdict missing = absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 1000)
                .evaluate((metric, point) -> OptionalDouble.empty());
        assertThat(missing.holds()).isFalse();
        assertThat(missing.explanation()).isEqualTo("output_throughput @ concurrency=256 was not measured; expected ≥"
                + " 1000 tok/s");
    }

    @Test
    void relativeComparesWithFactorTimesTheReference() {
        RelativeExpectation expectation = scaling(Comparison.AT_LEAST, 2.5);
        assertThat(expectation.holds(250, 100)).isTrue();
        assertThat(expectation.holds(249.9, 100)).isFalse();
        assertThat(scaling(Comparison.GREATER_THAN, 2.5).holds(250, 100)).isFalse();

        Verdict verdict = expectation.evaluate(1500, 650);
        assertThat(verdict.holds()).isFalse();
        assertThat(verdict.limit()).isEqualTo(1625);
        assertThat(verdict.explanation()).isEqualTo("output_throughput@concurrency=256 = 1500 tok/s = 2.3077 ×"
                + " output_throughput@concurrency=64 (650 tok/s); expected ≥ 2.5 × output_throughput@concurrency=64"
                + " (1625 tok/s)");
        assertThat(expectation.evaluate(10, 0).explanation()).startsWith("output_throughput@concurrency=256 = 10"
                + " tok/s, output_throughput@concurrency=64 (0 tok/s);");
    }

    @Test
    void relativeReadsBothSidesFromMeasurements() {
        Map<LoadPointKey, Double> throughput = Map.of(C64, 400.0, C256, 1000.0);
        Measurements measured = (metric, point) -> metric == MetricId.OUTPUT_THROUGHPUT && throughput.containsKey(point)
                ? OptionalDouble.of(throughput.get(point)) : OptionalDouble.empty();

        assertThat(scaling(Comparison.AT_LEAST, 2.5).evaluate(measured).holds()).isTrue();
        assertThat(scaling(Comparison.AT_LEAST, 2.6).evaluate(measured).holds()).isFalse();
        RelativeExpectation fromSingleStream = new RelativeExpectation(MetricId.OUTPUT_THROUGHPUT, C256,
                Comparison.AT_LEAST, 2, MetricId.OUTPUT_THROUGHPUT, C1, AT);
        Verdict unmeasured = fromSingleStream.evaluate(measured);
        assertThat(unmeasured.holds()).isFalse();
        assertThat(unmeasured.explanation()).isEqualTo("output_throughput@concurrency=1 was not measured; expected ≥ 2"
                + " × output_throughput@concurrency=1");
    }

    @Test
    void displayNamesAreCanonical() {
        assertThat(absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 600).displayName())
                .isEqualTo("output_throughput ≥ 600 tok/s @ concurrency=256");
        assertThat(new AbsoluteExpectation(MetricId.P99_TTFT_MS, Comparison.LESS_THAN, 0.25, Unit.MILLISECONDS,
                new LoadPointKey(64, 8.5), AT).displayName()).isEqualTo("p99_ttft_ms < 0.25 ms @ concurrency=64,rate=8.5");
        assertThat(scaling(Comparison.AT_LEAST, 2.5).displayName())
                .isEqualTo("relative: output_throughput@concurrency=256 ≥ 2.5 × output_throughput@concurrency=64");
        assertThat(new RelativeExpectation(MetricId.TOTAL_THROUGHPUT, new LoadPointKey(0, 16), Comparison.AT_MOST, 1,
                MetricId.OUTPUT_THROUGHPUT, new LoadPointKey(0, 16), AT).displayName())
                .isEqualTo("relative: total_throughput@rate=16 ≤ 1 × output_throughput@rate=16");
    }

    @Test
    void parsedExpectationsAreTheRecordsTheirDisplayNamesDescribe() {
        PerformanceSpec spec = SpecReader.parse("""
                name: x
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep: {concurrency: [64, 256]}
                expect:
                  - output_throughput >= 600 tok/s @ concurrency=256
                  - output_throughput@concurrency=256 >= 2.5 x output_throughput@concurrency=64
                """, "x.yaml");

        assertThat(spec.expectations()).containsExactly(
                new AbsoluteExpectation(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 600, Unit.TOKENS_PER_SECOND, C256,
                        new SourcePosition(Path.of("x.yaml"), 5, 5)),
                new RelativeExpectation(MetricId.OUTPUT_THROUGHPUT, C256, Comparison.AT_LEAST, 2.5,
                        MetricId.OUTPUT_THROUGHPUT, C64, new SourcePosition(Path.of("x.yaml"), 6, 5)));
        // Each display name parses back to the same expectation (the grammar accepts ≥ and ×).
        for (Expectation expectation : spec.expectations()) {
            String expression = expectation.displayName().replaceFirst("^relative: ", "");
            PerformanceSpec again = SpecReader.parse("""
                    name: x
                    workload: {dataset: random, input_len: 8, output_len: 8}
                    sweep: {concurrency: [64, 256]}
                    expect:
                      - %s
                    """.formatted(expression), "x.yaml");
            assertThat(again.expectations().getFirst().displayName()).isEqualTo(expectation.displayName());
        }
    }

    @Test
    void recordsRefuseWhatTheGrammarRefuses() {
        assertThatIllegalArgumentException().isThrownBy(() -> new AbsoluteExpectation(MetricId.OUTPUT_THROUGHPUT,
                Comparison.AT_LEAST, 600, Unit.MILLISECONDS, C256, AT)).withMessage("output_throughput is in tok/s, not ms");
        assertThatIllegalArgumentException().isThrownBy(() -> absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, -1));
        assertThatIllegalArgumentException().isThrownBy(() -> new RelativeExpectation(MetricId.OUTPUT_THROUGHPUT, C256,
                Comparison.AT_LEAST, 1, MetricId.P99_TTFT_MS, C64, AT));
        assertThatIllegalArgumentException().isThrownBy(() -> scaling(Comparison.AT_LEAST, 0));
        assertThatIllegalArgumentException().isThrownBy(() -> new RelativeExpectation(MetricId.OUTPUT_THROUGHPUT, C64,
                Comparison.AT_LEAST, 1, MetricId.OUTPUT_THROUGHPUT, C64, AT));
    }
}
