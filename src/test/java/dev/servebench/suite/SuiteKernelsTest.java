package dev.servebench.suite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.bench.KernelMode;
import dev.servebench.kernels.results.KernelMeasurementsJson;
import dev.servebench.metric.KernelMetric;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.SpecReader;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which kernel run a suite run judges on: a named one, else the kernel suite run by the suite itself (what
 * servebench check and the perf profile both do), only for a spec that needs one; skipped or failed, the
 * reason. The kernel suite is replaced by a recorder: these tests decide, they do not benchmark.
 */
class SuiteKernelsTest {

    private static final String KERNEL_LINE = """
            kernels:
              - moe_gflops@backend=native,tokens=64 >= 1 x moe_gflops@backend=ggml-f16
            """;

    @TempDir
    Path directory;

    private final List<String> runs = new ArrayList<>();

    @Test
    void kernelLinesWithoutANamedRunRunTheKernelSuiteInTheSettingsModeIntoTheSettingsDirectory() throws IOException {
        Path output = directory.resolve("kernels").resolve("full-20261205-101500");

        SuiteKernels kernels = SuiteKernels.prepare(spec(KERNEL_LINE), settings("servebench.kernels.mode", "full",
                "servebench.kernels.output", output.toString()), this::writeFigures);

        assertThat(runs).containsExactly("full " + output);
        assertThat(kernels).isEqualTo(new SuiteKernels.Results(output));
        assertThat(kernels.measurements().of(KernelMetric.MOE_GFLOPS)).singleElement()
                .satisfies(value -> assertThat(value.value()).isEqualTo(129));
        assertThat(kernels.directory()).contains(output);
    }

    @Test
    void byDefaultASmokeRunGoesUnderReportsKernels() {
        SuiteKernels kernels = SuiteKernels.prepare(spec(KERNEL_LINE), settings(), (mode, output) -> runs.add(
                mode.label() + " " + output));

        assertThat(runs).singleElement().asString().matches("smoke reports/kernels/smoke-\\d{8}-\\d{6}");
        assertThat(kernels).isInstanceOf(SuiteKernels.Results.class);
    }

    @Test
    void measuredHardwareFiguresNeedAKernelRunToo() throws IOException {
        String defaultSpec = Files.readString(Path.of("fixtures/specs/embedded-default.yaml"));
        Path withoutKernelLines = Files.writeString(directory.resolve("measured.yaml"),
                defaultSpec.substring(0, defaultSpec.indexOf("\nkernels:")));
        PerformanceSpec spec = SpecReader.read(withoutKernelLines);

        assertThat(spec.kernelExpectations()).isEmpty();
        assertThat(SuiteKernels.needsKernels(spec)).isTrue();
    }

    @Test
    void aNamedRunIsJudgedAndNothingRuns() {
        Path named = directory.resolve("smoke-20261204-120000");

        SuiteKernels kernels = SuiteKernels.prepare(spec(KERNEL_LINE), settings("servebench.kernels.results",
                named.toString()), this::record);

        assertThat(runs).isEmpty();
        assertThat(kernels).isEqualTo(new SuiteKernels.Results(named));
    }

    @Test
    void skippedOrNotNeededRunsNothingAndSaysWhy() throws IOException {
        SuiteKernels skipped = SuiteKernels.prepare(spec(KERNEL_LINE), settings("servebench.kernels.skip", "true"),
                this::record);
        SuiteKernels notNeeded = SuiteKernels.prepare(spec(""), settings(), this::record);

        assertThat(runs).isEmpty();
        assertThat(skipped).isEqualTo(new SuiteKernels.Absent(
                "the kernel benchmarks were skipped (-Dservebench.kernels.skip=true)"));
        assertThat(notNeeded).isEqualTo(new SuiteKernels.Absent("spec scripted has no kernels: lines and no measured"
                + " hardware figures, so no kernel benchmarks were run"));
        assertThat(skipped.measurements().absence()).contains(((SuiteKernels.Absent) skipped).reason());
    }

    @Test
    void aKernelSuiteThatCannotRunLeavesTheLinesNotJudgedWithItsReason() {
        Path output = directory.resolve("kernels").resolve("smoke-1");

        SuiteKernels kernels = SuiteKernels.prepare(spec(KERNEL_LINE), settings("servebench.kernels.output",
                output.toString()), (mode, dir) -> {
                    throw new IllegalStateException("kernel library libservebench_kernels.so not found; tried …");
                });

        assertThat(kernels).isEqualTo(new SuiteKernels.Absent("the kernel suite (smoke, into " + output
                + ") did not run: kernel library libservebench_kernels.so not found; tried …"));
    }

    private void record(KernelMode mode, Path output) {
        runs.add(mode.label() + " " + output);
    }

    /** What the kernel suite leaves behind, as far as the kernel lines read it. */
    private void writeFigures(KernelMode mode, Path output) throws IOException {
        record(mode, output);
        Files.createDirectories(output);
        Map<String, String> native64 = Map.of("backend", "native", "shape", "6144x256x256x8", "tokens", "64");
        KernelMeasurementsJson.write(output.resolve(KernelMeasurementsJson.FILE_NAME), "recorded", List.of(
                new KernelMeasurements.Value(KernelMetric.MOE_GFLOPS, native64, 129, List.of(List.of(129.0)))));
    }

    private PerformanceSpec spec(String sections) {
        try {
            return SpecReader.read(SuiteRun.writeScriptedSpec(directory, URI.create("http://127.0.0.1:9"), sections));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private SuiteSettings settings(String... parameters) {
        Map<String, String> configuration = new HashMap<>();
        for (int i = 0; i < parameters.length; i += 2) {
            configuration.put(parameters[i], parameters[i + 1]);
        }
        return SuiteSettings.from(key -> Optional.ofNullable(configuration.get(key)));
    }
}
