package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.metric.KernelBenchmark;
import dev.servebench.metric.KernelMetric;
import dev.servebench.metric.MetricId;
import dev.servebench.spec.KernelPoint;
import dev.servebench.spec.LoadPointKey;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The kernel comparison's verdicts: the serving comparison's statistics on kernel figures (same numbers, same
 * verdict), Holm across the points, unjudged points kept, and per-round machine drift cancelled by the pairs.
 */
class KernelPairedGateTest {

    private static final KernelPoint DEQUANT = new KernelPoint(KernelBenchmark.NVFP4_DEQUANT,
            Map.of("backend", "native", "output", "bf16", "layout", "linear", "rows", "16384", "k", "8192",
                    "threads", "2"));
    private static final KernelPoint MOE = new KernelPoint(KernelBenchmark.MOE,
            Map.of("backend", "native", "shape", "6144x256x256x8", "tokens", "64", "threads", "2"));

    @Test
    void aKernelFigureIsJudgedWithTheServingComparisonsStatistics() {
        double[] a = {40, 31, 25, 38, 44, 29};
        double[] b = {34, 27, 21, 33, 37, 25}; // 13–16 % lower in every round
        KernelOutcome kernel = KernelPairedGate.judge(List.of(point(KernelMetric.NVFP4_DEQUANT_GBPS, DEQUANT, a, b)),
                0.05, 0.05).getFirst();
        GateOutcome serving = PairedComparison.compare(MetricId.OUTPUT_THROUGHPUT, LoadPointKey.concurrency(1), a, b,
                Tolerance.defaults(), kernel.subject().hashCode());

        assertThat(kernel.verdict()).isEqualTo(GateVerdict.REGRESSION).isEqualTo(serving.verdict());
        assertThat(kernel.judgement().change()).isEqualTo(serving.relativeChange());
        assertThat(kernel.pValue()).isEqualTo(serving.pValue());
        assertThat(kernel.judgement().interval()).isEqualTo(serving.interval());
        assertThat(kernel.message()).startsWith("nvfp4_dequant_gbps @ Nvfp4DequantBenchmark:backend=native,")
                .contains("GB/s", "paired t-test on log(B/A), 6 rounds", "tolerance 5 %").endsWith("→ REGRESSION");
    }

    @Test
    void driftSharedByBothForksOfARoundIsNoRegressionAndFifteenPercentIsFound() {
        SplittableRandom random = new SplittableRandom(3);
        int falseAlarms = 0;
        int found = 0;
        int trials = 100;
        for (int trial = 0; trial < trials; trial++) {
            List<KernelOutcome> aa = KernelPairedGate.judge(List.of(drifting(random, DEQUANT, 1.0),
                    drifting(random, MOE, 1.0)), 0.05, 0.05);
            List<KernelOutcome> slowed = KernelPairedGate.judge(List.of(drifting(random, DEQUANT, 1 / 1.15),
                    drifting(random, MOE, 1 / 1.15)), 0.05, 0.05);
            falseAlarms += aa.stream().anyMatch(o -> o.verdict() == GateVerdict.REGRESSION) ? 1 : 0;
            found += slowed.stream().allMatch(o -> o.verdict() == GateVerdict.REGRESSION) ? 1 : 0;
        }
        assertThat(falseAlarms).as("A/A comparisons with a false regression, of %d", trials).isLessThanOrEqualTo(trials / 20);
        assertThat(found).as("15 %% slower B found at both points, of %d", trials).isGreaterThanOrEqualTo(trials * 95 / 100);
    }

    @Test
    void holmHoldsEachPointToItsRankedThreshold() {
        double[] a = {100, 100, 100, 100};
        double[] b = {91, 90, 89, 90.5}; // p ≈ 2e-4 alone: passes 0.05 / 2
        double[] noisy = {100, 100, 100, 100};
        double[] noisyB = {80, 98, 90, 95};
        List<KernelOutcome> outcomes = KernelPairedGate.judge(List.of(point(KernelMetric.NVFP4_DEQUANT_GBPS, DEQUANT,
                a, b), point(KernelMetric.MOE_GFLOPS, MOE, noisy, noisyB)), 0.05, 0.05);

        assertThat(outcomes).extracting(KernelOutcome::alpha).containsExactly(0.05 / 2, 0.05);
        assertThat(outcomes.getFirst().verdict()).isEqualTo(GateVerdict.REGRESSION);
        assertThat(outcomes.get(1).verdict()).isEqualTo(GateVerdict.NO_CHANGE);
    }

    @Test
    void aPointWithTooFewPairedRoundsIsKeptUnjudgedAndSaysWhichSideFailed() {
        double nan = Double.NaN;
        KernelOutcome outcome = KernelPairedGate.judge(List.of(point(KernelMetric.MOE_GFLOPS, MOE,
                new double[] {50, 51, 49, 50}, new double[] {nan, 40, nan, nan})), 0.05, 0.05).getFirst();

        assertThat(outcome.verdict()).isEqualTo(GateVerdict.INSUFFICIENT_DATA);
        assertThat(outcome.pValue()).isEmpty();
        assertThat(outcome.message()).contains("1 paired rounds < 3", "of 4 rounds, A measured it in 4, B in 1");
    }

    @Test
    void onlyEachBenchmarksGatedFigureIsJudged() {
        KernelPoint memcpy = new KernelPoint(KernelBenchmark.MEMCPY, Map.of("bytes", "268435456", "threads", "2"));
        double[] same = {10, 11, 12};
        List<KernelOutcome> outcomes = KernelPairedGate.judge(List.of(
                point(KernelMetric.MEMCPY_GBPS, memcpy, same, same),
                point(KernelMetric.MEMCPY_PER_THREAD_GBPS, memcpy, same, same)), 0.05, 0.05);

        assertThat(outcomes).extracting(KernelOutcome::metric).containsExactly(KernelMetric.MEMCPY_GBPS);
        assertThat(Arrays.stream(KernelBenchmark.values()).map(KernelMetric::gatedFigureOf))
                .containsExactly(KernelMetric.MEMCPY_GBPS, KernelMetric.NVFP4_DEQUANT_GBPS, KernelMetric.MOE_GFLOPS,
                        KernelMetric.ALLREDUCE_BUSBW_GBPS);
        assertThat(KernelMetric.ALLREDUCE_US.direction()).isEqualTo(dev.servebench.metric.Direction.LOWER_IS_BETTER);
    }

    @Test
    void badInputIsRejectedWithWhatAndWhere() {
        assertThatThrownBy(() -> point(KernelMetric.MOE_GFLOPS, DEQUANT, new double[] {1}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("moe_gflops is a figure of MoeBenchmark, not of Nvfp4DequantBenchmark");
        assertThatThrownBy(() -> point(KernelMetric.MOE_GFLOPS, MOE, new double[] {1, 2}, new double[] {1}))
                .hasMessageContaining("A has 2 rounds, B 1");
        assertThatThrownBy(() -> point(KernelMetric.MOE_GFLOPS, MOE, new double[] {-1}, new double[] {1}))
                .hasMessageContaining("value -1.0; expected a finite figure >= 0");
        assertThatThrownBy(() -> KernelPairedGate.judge(List.of(), 0.05, 0.5)).hasMessageContaining("alpha 0.5");
    }

    private static KernelPairedPoint point(KernelMetric metric, KernelPoint point, double[] a, double[] b) {
        return new KernelPairedPoint(metric, point, box(a), box(b));
    }

    private static List<Double> box(double[] values) {
        return Arrays.stream(values).boxed().toList();
    }

    /**
     * Eight rounds whose machine speed moves by ±40 % (the loaded 2-core VM) while the two forks of a round share
     * it, each with its own 2 % noise; B's figure is {@code factor} times A's.
     */
    private static KernelPairedPoint drifting(SplittableRandom random, KernelPoint point, double factor) {
        List<Double> a = new ArrayList<>();
        List<Double> b = new ArrayList<>();
        for (int round = 0; round < 8; round++) {
            double machine = 0.6 + 0.8 * random.nextDouble();
            a.add(30 * machine * (1 + 0.02 * (random.nextDouble() * 2 - 1) * Math.sqrt(3)));
            b.add(30 * factor * machine * (1 + 0.02 * (random.nextDouble() * 2 - 1) * Math.sqrt(3)));
        }
        return new KernelPairedPoint(KernelMetric.gatedFigureOf(point.benchmark()), point, a, b);
    }
}
