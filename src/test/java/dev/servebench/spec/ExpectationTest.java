package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** How expectations are named and built; judging them is {@code dev.servebench.verdict.JudgeTest}'s. */
class ExpectationTest {

    private static final SourcePosition AT = new SourcePosition(Path.of("s.yaml"), 12, 5);
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
    void notANumberNeverHolds() {
        for (Comparison comparison : Comparison.values()) {
            assertThat(comparison.test(Double.NaN, 1)).isFalse();
            assertThat(comparison.test(1, Double.NaN)).isFalse();
        }
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

    @Test
    void aBoundOperandParsesWithXOrTimesAndNamesTheBound() {
        PerformanceSpec spec = SpecReader.parse("""
                name: b
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep: {concurrency: [1, 8]}
                expect:
                  - output_throughput >= 0.25 x roofline_output_throughput @ concurrency=1
                  - mean_itl_ms <= 4× min_itl_ms @ concurrency=8
                """, "b.yaml");

        assertThat(spec.expectations()).containsExactly(
                new BoundExpectation(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 0.25,
                        BoundOperand.ROOFLINE_OUTPUT_THROUGHPUT, LoadPointKey.concurrency(1),
                        new SourcePosition(java.nio.file.Path.of("b.yaml"), 5, 5)),
                new BoundExpectation(MetricId.MEAN_ITL_MS, Comparison.AT_MOST, 4, BoundOperand.MIN_ITL_MS,
                        LoadPointKey.concurrency(8), new SourcePosition(java.nio.file.Path.of("b.yaml"), 6, 5)));
        assertThat(spec.expectations().getFirst().displayName())
                .isEqualTo("output_throughput ≥ 0.25 × roofline_output_throughput @ concurrency=1");
    }

    @Test
    void aBoundOperandInTheWrongUnitOrUnknownIsAnErrorAtIt() {
        String head = """
                name: b
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep: {concurrency: [1]}
                expect:
                """;
        assertThat(SpecErrorsTest.failure(head + "  - output_throughput >= 0.5 x min_itl_ms @ concurrency=1\n"))
                .hasMessage("bad.yaml:5:32: expect[0]: units differ: output_throughput is in tok/s, min_itl_ms in ms");
        assertThat(SpecErrorsTest.failure(head + "  - output_throughput >= 0.5 x roofline @ concurrency=1\n"))
                .hasMessage("bad.yaml:5:32: expect[0]: unknown bound 'roofline'; the bounds are"
                        + " roofline_output_throughput, min_itl_ms");
    }
}
