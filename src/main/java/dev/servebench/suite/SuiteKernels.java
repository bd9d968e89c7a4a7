package dev.servebench.suite;

import dev.servebench.kernels.bench.KernelMode;
import dev.servebench.kernels.bench.KernelRunSettings;
import dev.servebench.kernels.results.KernelMeasuredHardware;
import dev.servebench.kernels.results.KernelMeasurementsJson;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.PerformanceSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The kernel run a suite run judges its spec's {@code kernels:} lines on and takes its {@code measured} hardware
 * figures from: one named in the settings, else the kernel suite run now, before any server starts (so
 * {@code servebench check}, failsafe under {@code -Pperf} and an IDE measure the same way), else none, with
 * the reason. A spec that needs neither runs no kernel benchmark.
 */
sealed interface SuiteKernels {

    /** Runs the kernel suite into {@code output}. */
    @FunctionalInterface
    interface Runner {
        void run(KernelMode mode, Path output) throws IOException;
    }

    /** A kernel run: its directory or its kernel-measurements.json (which may be missing: then not judged). */
    record Results(Path path) implements SuiteKernels {
        public Results {
            Objects.requireNonNull(path, "path");
        }
    }

    /** No kernel run, and why. */
    record Absent(String reason) implements SuiteKernels {
        public Absent {
            Objects.requireNonNull(reason, "reason");
        }
    }

    static SuiteKernels prepare(PerformanceSpec spec, SuiteSettings settings, Runner runner) {
        if (settings.kernelsSkipped()) {
            return new Absent("the kernel benchmarks were skipped (-Dservebench.kernels.skip=true)");
        }
        if (settings.kernelResults().isPresent()) {
            return new Results(settings.kernelResults().get());
        }
        if (!needsKernels(spec)) {
            return new Absent("spec " + spec.name() + " has no kernels: lines and no measured hardware figures,"
                    + " so no kernel benchmarks were run");
        }
        Path output = settings.kernelsOutput().orElseGet(() -> KernelRunSettings.newRunDirectory(
                KernelRunSettings.DEFAULT_ROOT, settings.kernelsMode()));
        try {
            runner.run(settings.kernelsMode(), output);
        } catch (IOException | RuntimeException e) {
            // A step that fails leaves its figures unmeasured (those lines are not judged); this is the whole run.
            return new Absent("the kernel suite (" + settings.kernelsMode().label() + ", into " + output
                    + ") did not run: " + e.getMessage());
        }
        return new Results(output);
    }

    /** The spec's kernel lines, or a hardware figure written as {@code measured}, need a kernel run. */
    static boolean needsKernels(PerformanceSpec spec) {
        return !spec.kernelExpectations().isEmpty()
                || spec.deployment().map(deployment -> deployment.hardware().anyMeasured()).orElse(false);
    }

    /** The run's figures for the kernel lines, or why there are none. */
    default KernelMeasurements measurements() throws IOException {
        return switch (this) {
            case Results results -> KernelMeasurementsJson.read(results.path());
            case Absent absent -> KernelMeasurements.absent(absent.reason());
        };
    }

    /** The directory of the run, when there is one with its files. */
    default Optional<Path> directory() {
        return switch (this) {
            case Results results -> Optional.of(Files.isDirectory(results.path()) ? results.path()
                    : results.path().toAbsolutePath().getParent());
            case Absent absent -> Optional.empty();
        };
    }

    /** The figures.json beside the run's measurements, for the spec's {@code measured} hardware entries. */
    default MeasuredHardware hardware() {
        Optional<Path> run = directory().filter(dir -> Files.isRegularFile(dir.resolve("figures.json")));
        if (run.isEmpty()) {
            return MeasuredHardware.NONE;
        }
        try {
            return KernelMeasuredHardware.read(run.get());
        } catch (IOException | IllegalArgumentException e) {
            // The kernel expectations report the same file's problem as their own verdicts.
            return MeasuredHardware.NONE;
        }
    }
}
