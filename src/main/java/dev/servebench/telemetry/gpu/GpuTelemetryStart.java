package dev.servebench.telemetry.gpu;

import java.util.Objects;
import java.util.Optional;

/** What {@link GpuTelemetry#start} gives: a running sampler, or the reason there is none. */
public sealed interface GpuTelemetryStart {

    /** nvidia-smi is running; stop the sampler to get the report. */
    record Started(GpuSampler running) implements GpuTelemetryStart {
        public Started {
            Objects.requireNonNull(running, "running");
        }
    }

    /** No GPU telemetry on this machine, and why (one line for the report). */
    record Unavailable(String reason) implements GpuTelemetryStart {
        public Unavailable {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** The sampler, or empty when telemetry is unavailable. */
    default Optional<GpuSampler> sampler() {
        return switch (this) {
            case Started started -> Optional.of(started.running());
            case Unavailable _ -> Optional.empty();
        };
    }
}
