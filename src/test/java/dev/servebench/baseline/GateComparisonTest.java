package dev.servebench.baseline;

import static dev.servebench.metric.MetricId.BENCHMARK_DURATION;
import static dev.servebench.metric.MetricId.FAILED;
import static dev.servebench.metric.MetricId.MEDIAN_TTFT_MS;
import static dev.servebench.metric.MetricId.OUTPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.P99_E2E_LATENCY_MS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.servebench.spec.LoadPointKey;
import org.junit.jupiter.api.Test;

class GateComparisonTest {

    private static final LoadPointKey C256 = LoadPointKey.concurrency(256);
    private static final double[] THROUGHPUT_BEFORE = {612.3, 605.0, 618.9, 610.2, 615.7};
    private static final double[] THROUGHPUT_AFTER = {540.1, 535.2, 548.0, 538.7, 543.3};

    @Test
    void throughputDropBeyondToleranceAndSignificantIsARegressionNamingEverything() {
        GateOutcome o = GateComparison.compare(OUTPUT_THROUGHPUT, C256, THROUGHPUT_BEFORE, THROUGHPUT_AFTER,
                Tolerance.defaults(), 42);

        assertThat(o.verdict()).isEqualTo(GateVerdict.REGRESSION);
        assertThat(o.baselineMedian()).isEqualTo(612.3);
        assertThat(o.currentMedian()).isEqualTo(540.1);
        assertThat(o.baselineCount()).isEqualTo(5);
        assertThat(o.relativeChange()).isCloseTo(540.1 / 612.3 - 1, within(1e-12));
        assertThat(o.pValue()).isPresent();
        assertThat(o.pValue().getAsDouble()).isLessThan(0.001);
        ConfidenceInterval ci = o.interval().orElseThrow();
        assertThat(ci.upper()).isNegative();
        assertThat(ci.lower()).isLessThanOrEqualTo(o.relativeChange());
        assertThat(ci.upper()).isGreaterThanOrEqualTo(o.relativeChange());
        assertThat(o.message())
                .startsWith("output_throughput @ concurrency=256: 612.3 (n=5) \u2192 540.1 (n=5) tok/s (\u221211.8 %, 95 % CI \u2212")
                .contains("Yuen t-test (20 % trimmed means) p = ")
                .contains(" < 0.05, tolerance 5 % \u2192 REGRESSION");
        assertThat(o.method()).contains("Yuen t-test").contains("bootstrap").contains("2000 resamples");
    }

    @Test
    void theSameDropIsAnImprovementWhenLowerIsBetter() {
        // the same numbers as latencies: 11.8 % faster
        GateOutcome o = GateComparison.compare(MEDIAN_TTFT_MS, C256, THROUGHPUT_BEFORE, THROUGHPUT_AFTER,
                Tolerance.defaults(), 42);
        assertThat(o.verdict()).isEqualTo(GateVerdict.IMPROVEMENT);
        assertThat(o.message()).contains("tolerance 10 %").endsWith("\u2192 IMPROVEMENT");
    }

    @Test
    void aSignificantChangeWithinToleranceIsNoChange() {
        GateOutcome strict = GateComparison.compare(MEDIAN_TTFT_MS, C256, THROUGHPUT_AFTER, THROUGHPUT_BEFORE,
                Tolerance.defaults(), 42);
        assertThat(strict.verdict()).isEqualTo(GateVerdict.REGRESSION); // +13.4 % latency, tolerance 10 %

        GateOutcome loose = GateComparison.compare(MEDIAN_TTFT_MS, C256, THROUGHPUT_AFTER, THROUGHPUT_BEFORE,
                Tolerance.defaults().withOverride(MEDIAN_TTFT_MS, 0.20), 42);
        assertThat(loose.verdict()).isEqualTo(GateVerdict.NO_CHANGE);
        assertThat(loose.pValue().getAsDouble()).isLessThan(0.05);
        assertThat(loose.message()).contains("tolerance 20 %");
    }

    @Test
    void aLargeButNoisyChangeIsNotSignificant() {
        double[] before = {100, 60, 140};
        double[] after = {80, 40, 130};
        GateOutcome o = GateComparison.compare(OUTPUT_THROUGHPUT, C256, before, after, Tolerance.defaults(), 1);
        assertThat(o.relativeChange()).isCloseTo(-0.2, within(1e-12));
        assertThat(o.pValue().getAsDouble()).isGreaterThan(0.05);
        assertThat(o.verdict()).isEqualTo(GateVerdict.NO_CHANGE);
        assertThat(o.message()).contains(" \u2265 0.05");
    }

    @Test
    void fewerThanTwoSamplesOnASideReportsTheChangeWithoutSignificance() {
        GateOutcome o = GateComparison.compare(OUTPUT_THROUGHPUT, C256, new double[] {600}, THROUGHPUT_AFTER,
                Tolerance.defaults(), 1);
        assertThat(o.verdict()).isEqualTo(GateVerdict.INSUFFICIENT_DATA);
        assertThat(o.relativeChange()).isCloseTo(540.1 / 600 - 1, within(1e-12));
        assertThat(o.pValue()).isEmpty();
        assertThat(o.interval()).isEmpty();
        assertThat(o.message()).isEqualTo("output_throughput @ concurrency=256: 600 (n=1) \u2192 540.1 (n=5) tok/s"
                + " (\u221210.0 %), n = 1 < 2 on a side: no significance test \u2192 INSUFFICIENT_DATA");

        GateOutcome noBaseline = GateComparison.compare(OUTPUT_THROUGHPUT, C256, new double[0], THROUGHPUT_AFTER,
                Tolerance.defaults(), 1);
        assertThat(noBaseline.verdict()).isEqualTo(GateVerdict.INSUFFICIENT_DATA);
        assertThat(noBaseline.relativeChange()).isNaN();
        assertThat(noBaseline.message()).startsWith("output_throughput @ concurrency=256: n/a (n=0) \u2192 540.1 (n=5)"
                + " tok/s (n/a), n = 0 < 2");
    }

    @Test
    void informationalMetricsAreReportedButNotJudged() {
        GateOutcome o = GateComparison.compare(BENCHMARK_DURATION, C256, new double[] {10, 10.1},
                new double[] {20, 20.2}, Tolerance.defaults(), 1);
        assertThat(o.verdict()).isEqualTo(GateVerdict.NOT_JUDGED);
        assertThat(o.relativeChange()).isCloseTo(1.0, within(1e-12));
        assertThat(o.message()).endsWith("informational metric, not judged \u2192 NOT_JUDGED");
    }

    @Test
    void constantSidesAreComparedWithoutDividingByZero() {
        GateOutcome same = GateComparison.compare(FAILED, C256, new double[] {2, 2, 2}, new double[] {2, 2, 2},
                Tolerance.defaults(), 1);
        assertThat(same.verdict()).isEqualTo(GateVerdict.NO_CHANGE);
        assertThat(same.pValue().getAsDouble()).isEqualTo(1.0);

        GateOutcome fromZero = GateComparison.compare(FAILED, C256, new double[] {0, 0, 0}, new double[] {3, 3, 3},
                Tolerance.defaults(), 1);
        assertThat(fromZero.relativeChange()).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(fromZero.verdict()).isEqualTo(GateVerdict.REGRESSION);
        assertThat(fromZero.message()).contains("(+\u221e %");
    }

    @Test
    void theSameSeedGivesTheSameOutcome() {
        GateOutcome a = GateComparison.compare(P99_E2E_LATENCY_MS, C256, THROUGHPUT_BEFORE, THROUGHPUT_AFTER,
                Tolerance.defaults(), 7);
        GateOutcome b = GateComparison.compare(P99_E2E_LATENCY_MS, C256, THROUGHPUT_BEFORE, THROUGHPUT_AFTER,
                Tolerance.defaults(), 7);
        assertThat(a).isEqualTo(b);
    }

    @Test
    void defaultTolerancesFollowTheKindOfMetric() {
        assertThat(Tolerance.defaultFraction(OUTPUT_THROUGHPUT)).isEqualTo(0.05);
        assertThat(Tolerance.defaultFraction(MEDIAN_TTFT_MS)).isEqualTo(0.10);
        assertThat(Tolerance.defaultFraction(P99_E2E_LATENCY_MS)).isEqualTo(0.15);
        assertThat(Tolerance.defaultFraction(FAILED)).isEqualTo(0.01);
        assertThat(Tolerance.defaults().withOverride(OUTPUT_THROUGHPUT, 0.02).fractionFor(OUTPUT_THROUGHPUT))
                .isEqualTo(0.02);
    }

    @Test
    void badInputIsRejected() {
        assertThatThrownBy(() -> GateComparison.compare(OUTPUT_THROUGHPUT, C256, new double[] {1, Double.NaN},
                new double[] {1, 2}, Tolerance.defaults(), 1)).hasMessageContaining("baseline samples must be finite");
        assertThatThrownBy(() -> Tolerance.defaults().withOverride(OUTPUT_THROUGHPUT, -0.1))
                .hasMessageContaining("output_throughput");
        assertThatThrownBy(() -> Tolerance.defaults().withAlpha(0.7)).hasMessageContaining("alpha");
    }
}
