package dev.servebench.schedule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ArrivalProcessTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    @Test
    void infiniteRateIsAllAtOnce() {
        assertThat(ArrivalProcess.of(INF, 1.0)).isEqualTo(new ArrivalProcess.AllAtOnce());
        assertThat(ArrivalProcess.of(INF, 0.5)).isInstanceOf(ArrivalProcess.AllAtOnce.class);
        assertThat(new ArrivalProcess.AllAtOnce().ratePerSecond()).isEqualTo(INF);
    }

    @Test
    void burstinessOneIsPoissonOtherwiseGamma() {
        assertThat(ArrivalProcess.of(4.0, 1.0)).isEqualTo(new ArrivalProcess.Poisson(4.0));
        assertThat(ArrivalProcess.of(4.0, 0.25)).isEqualTo(new ArrivalProcess.Gamma(4.0, 0.25));
        assertThat(ArrivalProcess.of(4.0, INF)).isEqualTo(new ArrivalProcess.Gamma(4.0, INF));
        assertThat(new ArrivalProcess.Gamma(4.0, INF).isConstant()).isTrue();
        assertThat(new ArrivalProcess.Gamma(4.0, 2.0).isConstant()).isFalse();
    }

    @Test
    void rejectsBadRates() {
        assertThatThrownBy(() -> ArrivalProcess.of(0.0, 1.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("requestRate (0.0) must be > 0");
        assertThatThrownBy(() -> ArrivalProcess.of(-2.0, 1.0)).hasMessage("requestRate (-2.0) must be > 0");
        assertThatThrownBy(() -> ArrivalProcess.of(Double.NaN, 1.0)).hasMessage("requestRate (NaN) must be > 0");
        assertThatThrownBy(() -> new ArrivalProcess.Poisson(INF))
                .hasMessage("ratePerSecond (Infinity) must be finite (an unlimited rate is AllAtOnce)");
        assertThatThrownBy(() -> new ArrivalProcess.Gamma(0.0, 1.0)).hasMessage("ratePerSecond (0.0) must be > 0");
    }

    @Test
    void rejectsBadBurstiness() {
        assertThatThrownBy(() -> ArrivalProcess.of(1.0, 0.0)).hasMessage("burstiness (0.0) must be > 0");
        assertThatThrownBy(() -> ArrivalProcess.of(INF, -1.0)).hasMessage("burstiness (-1.0) must be > 0");
        assertThatThrownBy(() -> new ArrivalProcess.Gamma(1.0, Double.NaN))
                .hasMessage("burstiness (NaN) must be > 0");
    }
}
