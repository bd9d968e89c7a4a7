package dev.servebench.telemetry.gpu;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.util.Objects;

/**
 * One line of {@code nvidia-smi --query-gpu=… --format=csv,noheader,nounits}: one GPU at one moment. A
 * numeric field is null when nvidia-smi printed {@code [N/A]}, {@code [Not Supported]} or another bracketed
 * reason instead of a number.
 *
 * @param at                   when the line was read
 * @param index                nvidia-smi's GPU index
 * @param name                 e.g. {@code NVIDIA H200}
 * @param uuid                 e.g. {@code GPU-5e2f…}; null when not available
 * @param driverVersion        e.g. {@code 570.133.20}; null when not available
 * @param powerDrawW           power.draw, W, as the driver reports it (newer drivers also offer
 *                             power.draw.instant and power.draw.average; power.draw follows one of them)
 * @param powerLimitW          power.limit, W
 * @param gpuUtilizationPct    utilization.gpu, % of the driver's sample period (1/6 s to 1 s, by product) in
 *                             which a kernel was running: busy time, not how much of the GPU was used
 * @param memoryUtilizationPct utilization.memory, % of the sample period device memory was read or written
 * @param memoryUsedMiB        memory.used, MiB
 * @param memoryTotalMiB       memory.total, MiB
 * @param temperatureC         temperature.gpu, °C
 * @param smClockMHz           clocks.sm, MHz
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record GpuSample(
        @JsonSerialize(using = ToStringSerializer.class) Instant at,
        int index,
        String name,
        String uuid,
        String driverVersion,
        Double powerDrawW,
        Double powerLimitW,
        Double gpuUtilizationPct,
        Double memoryUtilizationPct,
        Double memoryUsedMiB,
        Double memoryTotalMiB,
        Double temperatureC,
        Double smClockMHz) {

    public GpuSample {
        Objects.requireNonNull(at, "at");
        if (index < 0) {
            throw new IllegalArgumentException("index (" + index + ") must be >= 0");
        }
        Objects.requireNonNull(name, "name");
    }
}
