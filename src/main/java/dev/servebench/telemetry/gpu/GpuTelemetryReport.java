package dev.servebench.telemetry.gpu;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * What {@link GpuSampler#stop()} returns: every GPU seen, with its summary and time series.
 *
 * @param command        the nvidia-smi command line that was run
 * @param intervalMillis the requested sampling interval
 * @param startedAt      when sampling started
 * @param stoppedAt      when it was stopped
 * @param gpus           one per GPU index seen, in index order; empty when nvidia-smi printed no sample
 * @param exitCode       null when the sampler stopped nvidia-smi; its exit code when it ended by itself
 *                       first (e.g. no driver loaded), in which case the samples stop there
 * @param unparsedLines  output lines that were not samples (error messages, unknown formats)
 * @param problems       the first few of those lines and other problems, for the report
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record GpuTelemetryReport(
        List<String> command,
        long intervalMillis,
        @JsonSerialize(using = ToStringSerializer.class) Instant startedAt,
        @JsonSerialize(using = ToStringSerializer.class) Instant stoppedAt,
        List<GpuReport> gpus,
        Integer exitCode,
        long unparsedLines,
        List<String> problems) {

    public GpuTelemetryReport {
        command = List.copyOf(Objects.requireNonNull(command, "command"));
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("intervalMillis (" + intervalMillis + ") must be > 0");
        }
        Objects.requireNonNull(startedAt, "startedAt");
        Objects.requireNonNull(stoppedAt, "stoppedAt");
        gpus = List.copyOf(Objects.requireNonNull(gpus, "gpus"));
        if (unparsedLines < 0) {
            throw new IllegalArgumentException("unparsedLines (" + unparsedLines + ") must be >= 0");
        }
        problems = List.copyOf(Objects.requireNonNull(problems, "problems"));
    }

    /** One line per GPU for consoles, e.g. {@code GPU 0 NVIDIA H200 (driver 570.133.20): power mean 512 W, max 690 W …}. */
    public String lines() {
        if (gpus.isEmpty()) {
            return "no GPU sample" + (problems.isEmpty() ? "" : ": " + problems.getFirst());
        }
        return gpus.stream().map(GpuTelemetryReport::line).collect(Collectors.joining("\n"));
    }

    private static String line(GpuReport g) {
        GpuSummary s = g.summary();
        return "GPU " + g.index() + " " + g.name() + " (driver " + (g.driverVersion() == null ? "?" : g.driverVersion())
                + "): power mean " + fmt(s.meanPowerW(), "W") + ", max " + fmt(s.maxPowerW(), "W")
                + "; utilization mean " + fmt(s.meanGpuUtilizationPct(), "%") + ", max " + fmt(s.maxGpuUtilizationPct(), "%")
                + "; memory max " + fmt(s.maxMemoryUsedMiB(), "MiB") + " of " + fmt(s.memoryTotalMiB(), "MiB")
                + "; " + s.samples() + " samples";
    }

    private static String fmt(Double value, String unit) {
        return value == null ? "n/a" : String.format(Locale.US, "%.0f", value) + (unit.equals("%") ? "%" : " " + unit);
    }
}
