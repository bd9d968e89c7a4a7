package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.record.FailureKind;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ServingSummaryTest {

    private static ServingSummary summary(Map<MetricId, Double> values, Map<FailureKind, Integer> failures, int fallbacks) {
        return new ServingSummary(3, 1, TokenSource.CHUNK_COUNT, values, failures, fallbacks, 0, 0, 0, List.of());
    }

    @Test
    void absentMetricsAreEmptyAndMissingKindsAreZero() {
        ServingSummary s = summary(Map.of(MetricId.COMPLETED, 2.0), Map.of(FailureKind.RESET, 1), 0);
        assertThat(s.value(MetricId.COMPLETED)).hasValue(2.0);
        assertThat(s.value(MetricId.REQUEST_GOODPUT)).isEmpty();
        assertThat(s.failures(FailureKind.RESET)).isEqualTo(1);
        assertThat(s.failures(FailureKind.CONNECT)).isZero();
        assertThat(s.failuresByKind()).containsOnlyKeys(FailureKind.values());
        assertThat(s.failedOutcomes()).isEqualTo(1);
    }

    @Test
    void rejectsNonFiniteValuesAndNegativeCounts() {
        assertThatThrownBy(() -> summary(Map.of(MetricId.MEAN_TTFT_MS, Double.NaN), Map.of(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("values[mean_ttft_ms] (NaN)");
        assertThatThrownBy(() -> summary(Map.of(), Map.of(FailureKind.TIMEOUT, -1), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("failuresByKind[TIMEOUT] (-1)");
        assertThatThrownBy(() -> summary(Map.of(), Map.of(), -2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tokenSourceFallbacks (-2)");
    }

    @Test
    void optionsRequireTheirParts() {
        assertThatThrownBy(() -> new MetricOptions(null, Optional.empty()))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("tokenSource");
        assertThat(MetricOptions.defaults().tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(MetricOptions.defaults().goodput()).isEmpty();
        assertThat(MetricOptions.of(TokenSource.CHUNK_COUNT).withGoodput(GoodputSlo.ofE2elMs(5)).goodput())
                .contains(GoodputSlo.ofE2elMs(5));
    }
}
