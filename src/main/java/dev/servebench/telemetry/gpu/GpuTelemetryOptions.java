package dev.servebench.telemetry.gpu;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * How {@link GpuTelemetry#start} samples.
 *
 * @param interval          nvidia-smi's {@code -lms} period; 1 s by default, because the driver itself
 *                          measures utilization over periods of 1/6 s to 1 s, so faster sampling mostly
 *                          repeats values
 * @param lookup            where to find nvidia-smi
 * @param clock             stamps each line as it is read
 * @param maxReadingsPerGpu time-series points kept per GPU before thinning (summaries stay exact)
 */
public record GpuTelemetryOptions(Duration interval, ExecutableLookup lookup, Clock clock, int maxReadingsPerGpu) {

    static final Duration MIN_INTERVAL = Duration.ofMillis(10);
    static final Duration MAX_INTERVAL = Duration.ofHours(1);

    public GpuTelemetryOptions {
        Objects.requireNonNull(interval, "interval");
        if (interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("interval (" + interval + ") must be between " + MIN_INTERVAL + " and "
                    + MAX_INTERVAL);
        }
        Objects.requireNonNull(lookup, "lookup");
        Objects.requireNonNull(clock, "clock");
        if (maxReadingsPerGpu < 2) {
            throw new IllegalArgumentException("maxReadingsPerGpu (" + maxReadingsPerGpu + ") must be >= 2");
        }
    }

    /** Every second, nvidia-smi from PATH, UTC, up to 3,600 readings per GPU (an hour at full resolution). */
    public static GpuTelemetryOptions defaults() {
        return new GpuTelemetryOptions(Duration.ofSeconds(1), ExecutableLookup.systemPath(), Clock.systemUTC(), 3600);
    }

    public GpuTelemetryOptions withInterval(Duration newInterval) {
        return new GpuTelemetryOptions(newInterval, lookup, clock, maxReadingsPerGpu);
    }

    public GpuTelemetryOptions withLookup(ExecutableLookup newLookup) {
        return new GpuTelemetryOptions(interval, newLookup, clock, maxReadingsPerGpu);
    }
}
