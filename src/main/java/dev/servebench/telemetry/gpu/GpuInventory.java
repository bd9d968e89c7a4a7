package dev.servebench.telemetry.gpu;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The machine's GPUs in one call of {@code nvidia-smi --query-gpu=name,driver_version,memory.total
 * --format=csv,noheader}, for the environment fingerprint.
 */
public final class GpuInventory {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern MIB = Pattern.compile("(\\d+) MiB");

    private GpuInventory() {}

    /** The GPUs, from nvidia-smi on PATH; empty when there is none. */
    public static List<InstalledGpu> query() {
        return query(ExecutableLookup.systemPath(), DEFAULT_TIMEOUT);
    }

    /**
     * The GPUs; empty when nvidia-smi is absent, cannot start, fails (no driver loaded) or does not answer
     * within the timeout. Its answer (a line or so per GPU) fits the pipe, so waiting before reading is safe.
     *
     * @throws IllegalStateException when nvidia-smi answers in a format this parser does not know
     */
    public static List<InstalledGpu> query(ExecutableLookup lookup, Duration timeout) {
        Optional<Path> nvidiaSmi = lookup.find(GpuTelemetry.NVIDIA_SMI);
        if (nvidiaSmi.isEmpty()) {
            return List.of();
        }
        Process process;
        try {
            process = new ProcessBuilder(nvidiaSmi.get().toString(), "--query-gpu=name,driver_version,memory.total",
                    "--format=csv,noheader").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            return List.of();
        }
        try {
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return List.of();
            }
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                return List.of();
            }
            return parse(out);
        } catch (IOException e) {
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } finally {
            process.destroyForcibly();
        }
    }

    /**
     * Parses the answer: one {@code name, driver_version, memory.total} line per GPU, memory as
     * {@code 143771 MiB}; a bracketed value such as {@code [N/A]} becomes null.
     *
     * @throws IllegalArgumentException naming the line when it has fewer than three fields or a memory size
     *                                  that is not {@code <n> MiB}
     */
    public static List<InstalledGpu> parse(String csv) {
        List<InstalledGpu> gpus = new ArrayList<>();
        String[] lines = csv.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length < 3) {
                throw new IllegalArgumentException("nvidia-smi inventory line " + (i + 1) + ": expected name,"
                        + " driver_version, memory.total: " + line);
            }
            String name = String.join(",", Arrays.copyOfRange(f, 0, f.length - 2)).strip();
            String driver = f[f.length - 2].strip();
            String memory = f[f.length - 1].strip();
            gpus.add(new InstalledGpu(name, NvidiaSmiCsv.notAvailable(driver) || driver.isEmpty() ? null : driver,
                    mebibytes(memory, i + 1, line)));
        }
        return List.copyOf(gpus);
    }

    private static Long mebibytes(String value, int lineNumber, String line) {
        if (NvidiaSmiCsv.notAvailable(value)) {
            return null;
        }
        Matcher m = MIB.matcher(value);
        if (!m.matches()) {
            throw new IllegalArgumentException("nvidia-smi inventory line " + lineNumber + ": memory.total \"" + value
                    + "\" is not \"<n> MiB\": " + line);
        }
        return Long.parseLong(m.group(1));
    }
}
