package dev.servebench.telemetry.gpu;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Entry point of GPU telemetry: samples every GPU with nvidia-smi while a benchmark runs.
 *
 * <pre>{@code
 * GpuTelemetryStart start = GpuTelemetry.start(GpuTelemetryOptions.defaults());
 * Optional<GpuSampler> sampler = start.sampler();     // empty (with a reason) without nvidia-smi
 * … run the load point …
 * GpuTelemetryReport report = sampler.get().stop();   // kills nvidia-smi, summarises
 * }</pre>
 */
public final class GpuTelemetry {

    static final String NVIDIA_SMI = "nvidia-smi";

    private GpuTelemetry() {}

    /** Starts sampling, or says why it cannot: nvidia-smi not on PATH, or it would not start. */
    public static GpuTelemetryStart start(GpuTelemetryOptions options) {
        Objects.requireNonNull(options, "options");
        Optional<Path> nvidiaSmi = options.lookup().find(NVIDIA_SMI);
        if (nvidiaSmi.isEmpty()) {
            return new GpuTelemetryStart.Unavailable(NVIDIA_SMI + " is not on PATH (no NVIDIA driver on this machine?)");
        }
        List<String> command = NvidiaSmiCsv.samplingCommand(nvidiaSmi.get(), options.interval());
        try {
            return new GpuTelemetryStart.Started(GpuSampler.start(command, options));
        } catch (IOException e) {
            return new GpuTelemetryStart.Unavailable("cannot start " + nvidiaSmi.get() + ": " + e.getMessage());
        }
    }
}
