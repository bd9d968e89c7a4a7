package dev.servebench.telemetry.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** Energy from hand-built samples: no GPU needed. */
class PhaseEnergyTest {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private static GpuReading power(double seconds, Double watts) {
        return new GpuReading(T0.plusMillis((long) (seconds * 1000)), watts, null, null, null, null, null);
    }

    private static GpuReport gpu(int index, Double limitW, GpuReading... readings) {
        GpuSummary summary = new GpuSummary(readings.length, null, null, limitW, null, null, null, null, null, null,
                null);
        return new GpuReport(index, "NVIDIA RTX PRO 6000", null, null, summary, List.of(readings), 1);
    }

    private static GpuTelemetryReport window(double seconds, GpuReport... gpus) {
        return new GpuTelemetryReport(List.of("nvidia-smi"), 1000, T0, T0.plusMillis((long) (seconds * 1000)),
                List.of(gpus), null, 0, List.of());
    }

    @Test
    void powerIsIntegratedOverTheWindowPerGpuAndInAll() {
        // GPU 0 over 10 s: 300 W held from 0 to 1 s, trapezoids 300→300 (1–5 s) and 300→330 (5–9 s), 330 W held
        // to 10 s: 300 + 1200 + 1260 + 330 = 3090 J. GPU 1: 250 W throughout = 2500 J.
        PhaseEnergy energy = PhaseEnergy.of(window(10,
                gpu(0, 600.0, power(1, 300.0), power(5, 300.0), power(9, 330.0)),
                gpu(1, 600.0, power(0, 250.0), power(10, 250.0)))).orElseThrow();

        assertThat(energy.gpus().get(0).joules()).isCloseTo(3090, within(1e-9));
        assertThat(energy.gpus().get(1).joules()).isCloseTo(2500, within(1e-9));
        assertThat(energy.totalJoules()).isCloseTo(5590, within(1e-9));
        assertThat(energy.gpus().get(0).meanPowerW()).isCloseTo(309, within(1e-9));
        assertThat(energy.gpus().get(1).shareOfPowerLimit().getAsDouble()).isCloseTo(250.0 / 600, within(1e-12));
        // (3090 + 2500) J / 10 s / 1200 W = 46.6 %
        assertThat(energy.shareOfPowerLimit().getAsDouble()).isCloseTo(559.0 / 1200, within(1e-12));
        assertThat(energy.outputTokensPerJoule(OptionalDouble.of(5590)).getAsDouble()).isCloseTo(1, within(1e-12));
        assertThat(energy.describe(OptionalDouble.of(2795))).isEqualTo("energy 5.6 kJ on 2 GPUs over 10.0 s,"
                + " 0.500 output tok/J, mean power 47 % of the power limit");
    }

    @Test
    void withoutPowerReadingsThereIsNoEnergy() {
        assertThat(PhaseEnergy.of(window(10, gpu(0, 600.0, power(1, null), power(2, null))))).isEmpty();
        assertThat(PhaseEnergy.of(window(10))).isEmpty();
        assertThat(PhaseEnergy.of(window(0, gpu(0, 600.0, power(0, 300.0))))).isEmpty();
    }

    @Test
    void aGpuWithoutItsLimitHasNoShareAndNeitherHasTheWhole() {
        PhaseEnergy energy = PhaseEnergy.of(window(2, gpu(0, null, power(0, 100.0), power(2, 100.0)),
                gpu(1, 600.0, power(0, 300.0), power(2, 300.0)))).orElseThrow();

        assertThat(energy.gpus().getFirst().shareOfPowerLimit()).isEmpty();
        assertThat(energy.shareOfPowerLimit()).isEmpty();
        assertThat(energy.outputTokensPerJoule(OptionalDouble.empty())).isEmpty();
        assertThat(energy.describe(OptionalDouble.empty())).isEqualTo("energy 0.8 kJ on 2 GPUs over 2.0 s, output"
                + " tokens not measured, mean power 400 W (no power limit reported)");
    }
}
