package dev.servebench.telemetry.gpu;

import static dev.servebench.telemetry.gpu.NvidiaSmiCsvTest.T;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class GpuSummariesTest {

    private static GpuSample sample(int second, Double power, Double util, Double memory) {
        return new GpuSample(T.plusSeconds(second), 0, "NVIDIA H200", "GPU-a", "570.133.20", power, 700.0, util, 10.0,
                memory, 143771.0, 60.0 + second, 1980.0);
    }

    @Test
    void summariesAreMeansAndMaximaOfTheAvailableValues() {
        GpuAccumulator gpu = new GpuAccumulator(0, 100);
        gpu.add(sample(0, 600.0, 100.0, 1000.0));
        gpu.add(sample(1, null, 50.0, 3000.0));
        gpu.add(sample(2, 300.0, 0.0, 2000.0));

        GpuReport report = gpu.report();

        assertThat(report.name()).isEqualTo("NVIDIA H200");
        assertThat(report.driverVersion()).isEqualTo("570.133.20");
        GpuSummary s = report.summary();
        assertThat(s.samples()).isEqualTo(3);
        assertThat(s.meanPowerW()).isEqualTo(450.0);
        assertThat(s.maxPowerW()).isEqualTo(600.0);
        assertThat(s.powerLimitW()).isEqualTo(700.0);
        assertThat(s.meanGpuUtilizationPct()).isEqualTo(50.0);
        assertThat(s.maxGpuUtilizationPct()).isEqualTo(100.0);
        assertThat(s.maxMemoryUsedMiB()).isEqualTo(3000.0);
        assertThat(s.memoryTotalMiB()).isEqualTo(143771.0);
        assertThat(s.maxTemperatureC()).isEqualTo(62.0);
        assertThat(report.readings()).hasSize(3);
        assertThat(report.readings().get(1).powerDrawW()).isNull();
        assertThat(report.keptEvery()).isEqualTo(1);
    }

    @Test
    void aFieldNeverAvailableSummarisesAsNull() {
        GpuAccumulator gpu = new GpuAccumulator(0, 100);
        gpu.add(sample(0, null, null, 1.0));

        assertThat(gpu.report().summary().meanPowerW()).isNull();
        assertThat(gpu.report().summary().maxGpuUtilizationPct()).isNull();
    }

    @Test
    void aLongRunKeepsABoundedEvenSpreadButExactSummaries() {
        GpuAccumulator gpu = new GpuAccumulator(0, 8);
        IntStream.range(0, 1000).forEach(i -> gpu.add(sample(i, (double) i, 1.0, 1.0)));

        GpuReport report = gpu.report();

        assertThat(report.readings()).hasSizeLessThanOrEqualTo(8).hasSizeGreaterThanOrEqualTo(4);
        assertThat(report.readings().getFirst().at()).isEqualTo(T);
        long stride = report.keptEvery();
        assertThat(report.readings()).extracting(r -> (long) r.powerDrawW().doubleValue())
                .allSatisfy(i -> assertThat(i % stride).isZero());
        assertThat(report.summary().samples()).isEqualTo(1000);
        assertThat(report.summary().meanPowerW()).isEqualTo(499.5);
        assertThat(report.summary().maxPowerW()).isEqualTo(999.0);
    }

    @Test
    void boundedSamplesKeepMultiplesOfTheStride() {
        BoundedSamples<Integer> samples = new BoundedSamples<>(10);
        IntStream.range(0, 100).forEach(samples::offer);

        assertThat(samples.offered()).isEqualTo(100);
        assertThat(samples.stride()).isEqualTo(16);
        assertThat(samples.items()).containsExactly(0, 16, 32, 48, 64, 80, 96);
        assertThatThrownBy(() -> new BoundedSamples<Integer>(1)).hasMessageContaining("must be >= 2");
    }

    @Test
    void aSampleOfAnotherGpuIsRefused() {
        GpuAccumulator gpu = new GpuAccumulator(1, 10);
        assertThatThrownBy(() -> gpu.add(sample(0, 1.0, 1.0, 1.0))).hasMessage("sample of GPU 0 given to GPU 1");
    }
}
