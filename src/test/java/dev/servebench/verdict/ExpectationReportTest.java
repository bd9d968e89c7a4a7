package dev.servebench.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.metric.MetricId;
import dev.servebench.results.RunVerdictsJson.Kind;
import dev.servebench.results.RunVerdictsJson.Outcome;
import dev.servebench.spec.AbsoluteExpectation;
import dev.servebench.spec.Comparison;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.Measurements;
import dev.servebench.spec.RelativeExpectation;
import dev.servebench.spec.SourcePosition;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** JUnit's outcome and the verdicts.json entry come from one verdict and agree case by case. */
class ExpectationReportTest {

    private static final SourcePosition AT = new SourcePosition(Path.of("s.yaml"), 3, 5);
    private static final LoadPointKey C4 = LoadPointKey.concurrency(4);
    private static final LoadPointKey C1 = LoadPointKey.concurrency(1);

    /** 400 output tok/s at concurrency 4, 100 at 1; no goodput (no SLOs). */
    private static final Measurements MEASURED = (metric, point) -> switch (metric) {
        case OUTPUT_THROUGHPUT -> OptionalDouble.of(point.equals(C4) ? 400 : 100);
        case REQUEST_GOODPUT -> OptionalDouble.empty();
        default -> OptionalDouble.of(7);
    };

    private static AbsoluteExpectation absolute(MetricId metric, Comparison comparison, double threshold) {
        return new AbsoluteExpectation(metric, comparison, threshold, metric.unit(), C4, AT);
    }

    @Test
    void aPassPassesAndIsRecordedAsPassWithItsNumbers() {
        ExpectationReport report = ExpectationReport.judge(absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 300),
                MEASURED);

        assertThat(report.failure()).isEmpty();
        assertThat(report.entry().outcome()).isEqualTo(Outcome.PASS);
        assertThat(report.entry().reason()).isEqualTo(report.message()).startsWith("holds: output_throughput ≥ 300");
        assertThat(report.entry().summary()).isEqualTo("400 tok/s, expected ≥ 300 tok/s");
        assertThat(report.entry().kind()).isEqualTo(Kind.EXPECTATION);
        assertThat(report.entry().point()).contains("concurrency=4");
    }

    @Test
    void aFailFailsWithTheMessageThatIsRecorded() {
        ExpectationReport report = ExpectationReport.judge(absolute(MetricId.OUTPUT_THROUGHPUT, Comparison.AT_LEAST, 600),
                MEASURED);

        assertThat(report.failure()).contains(report.message());
        assertThat(report.entry().outcome()).isEqualTo(Outcome.FAIL);
        assertThat(report.entry().reason()).isEqualTo(report.failure().orElseThrow())
                .startsWith("FAILED: output_throughput ≥ 600 tok/s @ concurrency=4\n")
                .contains("total_throughput = 7.000 tok/s");
        assertThat(report.entry().summary()).isEqualTo("400 tok/s, expected ≥ 600 tok/s");
    }

    @Test
    void notJudgedFailsTooAndIsRecordedAsNotJudgedNeverAsPass() {
        ExpectationReport report = ExpectationReport.judge(
                absolute(MetricId.REQUEST_GOODPUT, Comparison.GREATER_THAN, 1000000), MEASURED);

        assertThat(report.failure()).hasValueSatisfying(failure -> assertThat(failure).startsWith(
                "not judged: request_goodput @ concurrency=4 was not measured: no goodput SLOs were given\n"
                        + "NOT JUDGED: request_goodput > 1000000 req/s @ concurrency=4"));
        assertThat(report.entry().outcome()).isEqualTo(Outcome.NOT_JUDGED);
        assertThat(report.entry().reason()).isEqualTo(report.failure().orElseThrow());
        assertThat(report.entry().summary()).isEqualTo("request_goodput @ concurrency=4 was not measured: no goodput"
                + " SLOs were given; expected > 1000000 req/s");
    }

    @Test
    void aRelativeExpectationIsRecordedWithoutAPointWithBothValuesAndTheLimit() {
        RelativeExpectation scaling = new RelativeExpectation(MetricId.OUTPUT_THROUGHPUT, C4, Comparison.AT_LEAST, 3,
                MetricId.OUTPUT_THROUGHPUT, C1, AT);
        ExpectationReport report = ExpectationReport.judge(scaling, MEASURED);

        assertThat(report.failure()).isEmpty();
        assertThat(report.entry().point()).isEqualTo(Optional.empty());
        assertThat(report.entry().summary()).isEqualTo("400 tok/s = 4 × 100 tok/s, expected ≥ 3 × 100 = 300 tok/s");
        assertThat(report.entry().reason()).contains("output_throughput@concurrency=4 = 400 tok/s = 4 ×"
                + " output_throughput@concurrency=1 (100 tok/s); expected ≥ 3 × output_throughput@concurrency=1 (300 tok/s)");
    }
}
