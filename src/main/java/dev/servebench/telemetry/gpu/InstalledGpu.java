package dev.servebench.telemetry.gpu;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.Objects;

/**
 * One GPU of the machine, for the run's environment fingerprint.
 *
 * @param name           e.g. {@code NVIDIA RTX PRO 6000 Blackwell Server Edition}
 * @param driverVersion  e.g. {@code 580.65.06}; null when nvidia-smi did not report it
 * @param memoryTotalMiB null when nvidia-smi did not report it
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record InstalledGpu(String name, String driverVersion, Long memoryTotalMiB) {

    public InstalledGpu {
        Objects.requireNonNull(name, "name");
        if (memoryTotalMiB != null && memoryTotalMiB < 0) {
            throw new IllegalArgumentException("memoryTotalMiB (" + memoryTotalMiB + ") must be >= 0");
        }
    }
}
