package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DisturbedRoundsTest {

    private static final LoadPointKey C16 = LoadPointKey.concurrency(16);
    /** A's probes in a quiet comparison: within a few percent of each other. */
    private static final List<Double> QUIET_A = List.of(40.0, 41.0, 39.5, 42.0, 40.2, 38.9);

    @Test
    void probesThatAgreeAsInAQuietComparisonSetNothingAside() {
        DisturbedRounds disturbed = DisturbedRounds.of(point(QUIET_A, List.of(41.0, 39.0, 40.5, 40.0, 43.5, 39.9)));

        assertThat(disturbed.isEmpty()).isTrue();
    }

    @Test
    void aRoundWhoseProbesDisagreeBeyondTheUsualIsSetAsideAndNamed() {
        DisturbedRounds disturbed = DisturbedRounds.of(point(QUIET_A, List.of(41.0, 39.0, 64.0, 40.0, 43.5, 39.9)));

        assertThat(disturbed.rounds()).containsExactly(2);
        assertThat(disturbed.describe()).startsWith("round 3 of 6 set aside: A's and B's machine probes disagreed by "
                + "more than 22 %");
    }

    @Test
    void atMostAQuarterOfTheRoundsIsSetAsideTheMostDisagreeingFirst() {
        // three of eight disagree; the two worst go (a quarter of eight), the mildest is kept
        DisturbedRounds disturbed = DisturbedRounds.of(point(List.of(40.0, 40.0, 40.0, 40.0, 40.0, 40.0, 40.0, 40.0),
                List.of(40.0, 60.0, 40.0, 120.0, 41.0, 40.0, 90.0, 39.0)));

        assertThat(disturbed.rounds()).containsExactly(3, 6);
        assertThat(disturbed.kept()).isEqualTo(1);
        assertThat(disturbed.describe()).contains("rounds 4, 7 of 8 set aside").contains("1 more disagreed and was kept");
        assertThat(disturbed.tooMany()).isTrue();
        assertThat(disturbed.tooManyReason()).startsWith("A's and B's machine probes disagreed in 3 of 8 rounds");
    }

    @Test
    void aQuarterDisagreeingIsNotTooMany() {
        DisturbedRounds disturbed = DisturbedRounds.of(point(List.of(40.0, 40.0, 40.0, 40.0, 40.0, 40.0, 40.0, 40.0),
                List.of(40.0, 60.0, 40.0, 120.0, 41.0, 40.0, 40.0, 39.0)));

        assertThat(disturbed.rounds()).containsExactly(1, 3);
        assertThat(disturbed.tooMany()).isFalse();
    }

    @Test
    void aReplacementRoundIsWantedWhileFewerThanThePlannedRoundsAgreed() {
        PairedPoint quiet = point(QUIET_A, List.of(41.0, 39.0, 40.5, 40.0, 43.5, 39.9));
        PairedPoint oneDisturbed = point(QUIET_A, List.of(41.0, 39.0, 64.0, 40.0, 43.5, 39.9));
        PairedPoint replaced = point(List.of(40.0, 41.0, 39.5, 42.0, 40.2, 38.9, 40.0),
                List.of(41.0, 39.0, 64.0, 40.0, 43.5, 39.9, 40.5));

        assertThat(DisturbedRounds.replacementWanted(List.of(quiet), 6)).isFalse();
        assertThat(DisturbedRounds.replacementWanted(List.of(quiet, oneDisturbed), 6)).isTrue();
        assertThat(DisturbedRounds.replacementWanted(List.of(quiet, replaced), 6)).isFalse();
    }

    @Test
    void aCandidateThatSlowsEveryProbeAlikeHasNoRoundSetAside() {
        // B's server loads the machine in every round: that is B's doing, not a neighbour's burst
        DisturbedRounds disturbed = DisturbedRounds.of(point(QUIET_A, List.of(60.0, 61.0, 58.0, 62.0, 61.0, 59.0)));

        assertThat(disturbed.isEmpty()).isTrue();
    }

    @Test
    void withFewerThanThreeProbedRoundsThereIsNoUsualToCompareWith() {
        double nan = Double.NaN;
        DisturbedRounds disturbed = DisturbedRounds.of(point(List.of(40.0, nan, nan, 40.0), List.of(90.0, 40.0, nan,
                40.0)));

        assertThat(disturbed.isEmpty()).isTrue();
    }

    @Test
    void roundsOutsideThePointAreRefused() {
        assertThatThrownBy(() -> new DisturbedRounds(List.of(4), 4, 0)).hasMessageContaining("[0, 4)");
    }

    private static PairedPoint point(List<Double> probesA, List<Double> probesB) {
        List<Map<MetricId, Double>> rounds = Collections.nCopies(probesA.size(),
                Map.of(MetricId.OUTPUT_THROUGHPUT, 100.0));
        return new PairedPoint(C16, rounds, rounds, probesA, probesB);
    }
}
