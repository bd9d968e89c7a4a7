package dev.servebench.telemetry.gpu;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.util.Objects;

/**
 * One point of a GPU's time series in a report: the fields that move during a run (the GPU's name,
 * limits and totals are in its {@link GpuReport} once). Null fields were not available.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record GpuReading(
        @JsonSerialize(using = ToStringSerializer.class) Instant at,
        Double powerDrawW,
        Double gpuUtilizationPct,
        Double memoryUtilizationPct,
        Double memoryUsedMiB,
        Double temperatureC,
        Double smClockMHz) {

    public GpuReading {
        Objects.requireNonNull(at, "at");
    }

    static GpuReading of(GpuSample s) {
        return new GpuReading(s.at(), s.powerDrawW(), s.gpuUtilizationPct(), s.memoryUtilizationPct(),
                s.memoryUsedMiB(), s.temperatureC(), s.smClockMHz());
    }
}
