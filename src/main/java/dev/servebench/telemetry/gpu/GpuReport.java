package dev.servebench.telemetry.gpu;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Objects;

/**
 * One GPU in a telemetry report.
 *
 * @param index         nvidia-smi's GPU index
 * @param name          e.g. {@code NVIDIA H200}
 * @param uuid          null when nvidia-smi did not report it
 * @param driverVersion null when nvidia-smi did not report it
 * @param summary       over every sample
 * @param readings      the time series, thinned to a bounded size for long runs
 * @param keptEvery     {@code readings} holds every keptEvery-th sample (1 = all of them)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record GpuReport(
        int index,
        String name,
        String uuid,
        String driverVersion,
        GpuSummary summary,
        List<GpuReading> readings,
        long keptEvery) {

    public GpuReport {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(summary, "summary");
        readings = List.copyOf(Objects.requireNonNull(readings, "readings"));
        if (keptEvery < 1) {
            throw new IllegalArgumentException("keptEvery (" + keptEvery + ") must be >= 1");
        }
    }
}
