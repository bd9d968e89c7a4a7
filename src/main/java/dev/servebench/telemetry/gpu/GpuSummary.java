package dev.servebench.telemetry.gpu;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * One GPU over the whole sampling window, computed from every sample (not only the ones a report keeps).
 * A field is null when no sample had the value (nvidia-smi printed [N/A] or [Not Supported] throughout).
 *
 * @param samples                  lines read for this GPU
 * @param meanPowerW               mean power.draw, W
 * @param maxPowerW                max power.draw, W
 * @param powerLimitW              power.limit of the last sample, W
 * @param meanGpuUtilizationPct    mean utilization.gpu, %
 * @param maxGpuUtilizationPct     max utilization.gpu, %
 * @param meanMemoryUtilizationPct mean utilization.memory, %
 * @param maxMemoryUsedMiB         max memory.used, MiB
 * @param memoryTotalMiB           memory.total of the last sample, MiB
 * @param maxTemperatureC          max temperature.gpu, °C
 * @param meanSmClockMHz           mean clocks.sm, MHz
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record GpuSummary(
        long samples,
        Double meanPowerW,
        Double maxPowerW,
        Double powerLimitW,
        Double meanGpuUtilizationPct,
        Double maxGpuUtilizationPct,
        Double meanMemoryUtilizationPct,
        Double maxMemoryUsedMiB,
        Double memoryTotalMiB,
        Double maxTemperatureC,
        Double meanSmClockMHz) {

    public GpuSummary {
        if (samples < 0) {
            throw new IllegalArgumentException("samples (" + samples + ") must be >= 0");
        }
    }
}
