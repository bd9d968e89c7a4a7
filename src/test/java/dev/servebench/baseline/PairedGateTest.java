package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PairedGateTest {

    private static final LoadPointKey C1 = LoadPointKey.concurrency(1);

    @Test
    void aSideMissingInEveryRoundLeavesEveryGatedMetricNotJudgedAndSaysSo() {
        List<Map<MetricId, Double>> a = rounds(6, 1.0);
        List<Map<MetricId, Double>> b = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            b.add(Map.of());
        }
        List<GateOutcome> outcomes = PairedGate.judge(List.of(new PairedPoint(C1, a, b)), Tolerance.defaults());

        assertThat(outcomes).filteredOn(o -> GatedMetrics.gated(o.metric())).hasSize(2)
                .allSatisfy(o -> {
                    assertThat(o.verdict()).isEqualTo(GateVerdict.INSUFFICIENT_DATA);
                    assertThat(o.message()).contains("of 6 rounds, A measured it in 6, B in 0");
                });
    }

    @Test
    void aPointNeitherSideMeasuredKeepsEveryGatedComparisonUnjudged() {
        List<Map<MetricId, Double>> none = List.of(Map.of(), Map.of(), Map.of());
        List<GateOutcome> outcomes = PairedGate.judge(List.of(new PairedPoint(C1, none, none)), Tolerance.defaults());

        assertThat(outcomes).hasSize(14).allSatisfy(o -> assertThat(o.verdict()).isEqualTo(GateVerdict.INSUFFICIENT_DATA));
    }

    @Test
    void holmHoldsTheComparisonsToCorrectedThresholds() {
        List<GateOutcome> outcomes = PairedGate.judge(List.of(new PairedPoint(C1, rounds(8, 1.0), rounds(8, 0.8))),
                Tolerance.defaults());
        GateOutcome throughput = outcomes.stream().filter(o -> o.metric() == MetricId.OUTPUT_THROUGHPUT).findFirst()
                .orElseThrow();

        GateOutcome itl = outcomes.stream().filter(o -> o.metric() == MetricId.MEDIAN_ITL_MS).findFirst()
                .orElseThrow();

        assertThat(throughput.verdict()).isEqualTo(GateVerdict.REGRESSION);
        assertThat(itl.verdict()).isEqualTo(GateVerdict.REGRESSION);
        // two judged comparisons: Holm's steps are alpha / 2, then alpha
        assertThat(List.of(throughput.alpha(), itl.alpha()))
                .containsExactlyInAnyOrder(Tolerance.DEFAULT_ALPHA / 2, Tolerance.DEFAULT_ALPHA);
    }

    @Test
    void roundsWhoseProbesShowAOneSidedDisturbanceAreSetAsideSoTheyCannotHideARegression() {
        // B's ITL is 15 % higher in every round; in three of twelve a burst hit A only: its probe and its ITL doubled
        List<Map<MetricId, Double>> a = new ArrayList<>();
        List<Map<MetricId, Double>> b = new ArrayList<>();
        List<Double> probesA = new ArrayList<>();
        List<Double> probesB = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            boolean hit = i % 4 == 1;
            double jitter = 1 + 0.02 * ((i * 7) % 5 - 2);
            a.add(Map.of(MetricId.MEDIAN_ITL_MS, 10.0 * (hit ? 2.0 : 1.0)));
            b.add(Map.of(MetricId.MEDIAN_ITL_MS, 11.5 * jitter));
            probesA.add(hit ? 80.0 : 40.0 * jitter);
            probesB.add(40.0);
        }

        GateOutcome unprobed = itl(PairedGate.judge(List.of(new PairedPoint(C1, a, b)), Tolerance.pairedDefaults()));
        GateOutcome probed = itl(PairedGate.judge(List.of(new PairedPoint(C1, a, b, probesA, probesB)),
                Tolerance.pairedDefaults()));

        assertThat(unprobed.verdict()).isEqualTo(GateVerdict.NO_CHANGE);
        assertThat(probed.verdict()).isEqualTo(GateVerdict.REGRESSION);
        assertThat(probed.baselineCount()).isEqualTo(9);
        assertThat(probed.message()).contains("9 rounds (rounds 2, 6, 10 of 12 set aside: A's and B's machine probes");
    }

    @Test
    void aNoChangeWhereMoreThanAQuarterOfTheRoundsWereDisturbedIsNotJudgedButARegressionStands() {
        // B's ITL is 15 % higher; in five of twelve rounds a burst hit one side, mostly A: three can be set aside,
        // two must be kept, and with them the test cannot show the change at the paired tolerance
        List<Map<MetricId, Double>> a = new ArrayList<>();
        List<Map<MetricId, Double>> b = new ArrayList<>();
        List<Double> probesA = new ArrayList<>();
        List<Double> probesB = new ArrayList<>();
        double[] burstOnA = {1, 2.2, 1, 0.5, 1, 2.0, 1, 0.6, 1, 2.4, 1, 1.8};
        for (int i = 0; i < 12; i++) {
            double jitter = 1 + 0.02 * ((i * 7) % 5 - 2);
            a.add(Map.of(MetricId.MEDIAN_ITL_MS, 10.0 * burstOnA[i], MetricId.OUTPUT_THROUGHPUT, 500 * jitter));
            b.add(Map.of(MetricId.MEDIAN_ITL_MS, 11.5 * jitter, MetricId.OUTPUT_THROUGHPUT, 400.0));
            probesA.add(40.0 * burstOnA[i]);
            probesB.add(40.0 * jitter);
        }

        List<GateOutcome> outcomes = PairedGate.judge(List.of(new PairedPoint(C1, a, b, probesA, probesB)),
                Tolerance.pairedDefaults());

        GateOutcome itl = itl(outcomes);
        assertThat(itl.verdict()).isEqualTo(GateVerdict.INSUFFICIENT_DATA);
        assertThat(itl.message()).contains("not judged: A's and B's machine probes disagreed in 6 of 12 rounds")
                .contains("no change shown");
        assertThat(outcomes.stream().filter(o -> o.metric() == MetricId.OUTPUT_THROUGHPUT).findFirst().orElseThrow()
                .verdict()).as("a 20 % throughput loss is found despite the disturbance").isEqualTo(GateVerdict.REGRESSION);
    }

    @Test
    void theComparisonToleratesLessChangeOfAMedianThanTheHistoryGate() {
        // +8 % ITL in every round, ±1 %: beyond the paired 5 %, within the history gate's 10 %
        List<Map<MetricId, Double>> a = new ArrayList<>();
        List<Map<MetricId, Double>> b = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            double jitter = 1 + 0.005 * ((i * 7) % 5 - 2);
            a.add(Map.of(MetricId.MEDIAN_ITL_MS, 10.0, MetricId.P99_ITL_MS, 20.0));
            b.add(Map.of(MetricId.MEDIAN_ITL_MS, 10.8 * jitter, MetricId.P99_ITL_MS, 21.6 * jitter));
        }

        assertThat(itl(PairedGate.judge(List.of(new PairedPoint(C1, a, b)), Tolerance.defaults())).verdict())
                .isEqualTo(GateVerdict.NO_CHANGE);
        List<GateOutcome> paired = PairedGate.judge(List.of(new PairedPoint(C1, a, b)), Tolerance.pairedDefaults());
        assertThat(itl(paired).verdict()).isEqualTo(GateVerdict.REGRESSION);
        assertThat(paired.stream().filter(o -> o.metric() == MetricId.P99_ITL_MS).findFirst().orElseThrow()
                .verdict()).as("a p99 keeps its 15 %").isEqualTo(GateVerdict.NO_CHANGE);
        assertThat(Tolerance.pairedDefaults().fractionFor(MetricId.OUTPUT_THROUGHPUT)).isEqualTo(0.05);
        assertThat(Tolerance.pairedDefaults().fractionFor(MetricId.MEAN_TTFT_MS)).isEqualTo(0.05);
    }

    private static GateOutcome itl(List<GateOutcome> outcomes) {
        return outcomes.stream().filter(o -> o.metric() == MetricId.MEDIAN_ITL_MS).findFirst().orElseThrow();
    }

    /** Rounds whose speed varies by ±30 %; {@code speed} scales B's throughput down and its ITL up. */
    private static List<Map<MetricId, Double>> rounds(int n, double speed) {
        List<Map<MetricId, Double>> rounds = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double machine = 0.7 + 0.6 * ((i * 37) % 11) / 10.0;
            double jitter = 1 + 0.01 * ((i * 13) % 5 - 2);
            rounds.add(Map.of(MetricId.OUTPUT_THROUGHPUT, 500 * machine * speed * jitter,
                    MetricId.MEDIAN_ITL_MS, 20 / (machine * speed) * jitter));
        }
        return rounds;
    }
}
