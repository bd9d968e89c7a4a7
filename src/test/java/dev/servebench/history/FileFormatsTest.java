package dev.servebench.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.kernels.results.CopyFigure;
import dev.servebench.kernels.results.KernelMeasurementsJson;
import dev.servebench.kernels.results.KernelReport;
import dev.servebench.metric.KernelMetric;
import dev.servebench.results.FileFormat;
import dev.servebench.results.MeasurementsFile;
import dev.servebench.results.RunVerdictsJson;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.telemetry.RunEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every versioned file: what its writer writes its reader reads back equal, with the format stated first; a
 * file from before the {@code format} field reads as version 1; a newer version is refused naming the file.
 */
class FileFormatsTest {

    private static final Path FIXTURE_RUN = Path.of("fixtures", "gate-check", "embedded-gate-2core", "aa",
            "embedded-gate-20261202-164700");

    @TempDir
    Path dir;

    @Test
    void aFormatIdIsCheckedByNameAndVersion() {
        assertThat(FileFormat.SUMMARY.id()).isEqualTo("servebench-summary/1");
        assertThat(FileFormat.SUMMARY.accept(null)).isEqualTo("servebench-summary/1");
        assertThat(FileFormat.MEASUREMENTS.accept("servebench-measurements/1")).isEqualTo("servebench-measurements/1");
        assertThatThrownBy(() -> FileFormat.SUMMARY.accept("servebench-summary/2"))
                .hasMessage("format servebench-summary/2 is newer than this servebench (reads /1)");
        assertThatThrownBy(() -> FileFormat.SUMMARY.accept("servebench-verdicts/1"))
                .hasMessage("format servebench-verdicts/1 is not a <label>.summary.json (expected servebench-summary/1)");
        assertThatThrownBy(() -> FileFormat.SUMMARY.accept("servebench-summary/x"))
                .hasMessageContaining("has no version number");
    }

    @Test
    void measurementsAndEnvironmentOfARecordedRunReadWithoutAFormatAndRoundTrip() throws IOException {
        MeasurementsFile measurements = MeasurementsFile.read(FIXTURE_RUN.resolve("measurements.json"));
        RunEnvironment environment = RunEnvironment.read(FIXTURE_RUN.resolve("environment.json"));
        assertThat(Files.readString(FIXTURE_RUN.resolve("measurements.json"))).doesNotContain("\"format\"");
        assertThat(measurements.format()).isEqualTo("servebench-measurements/1");
        assertThat(measurements.points()).isNotEmpty();
        assertThat(environment.fingerprint()).isEqualTo("b2c85828eb39af9a");

        Path file = dir.resolve("measurements.json");
        measurements.write(file);
        environment.write(dir);
        assertThat(Files.readString(file)).startsWith("{\n  \"format\" : \"servebench-measurements/1\",\n  \"spec\"");
        assertThat(MeasurementsFile.read(file)).isEqualTo(measurements);
        assertThat(RunEnvironment.read(dir.resolve("environment.json"))).isEqualTo(environment);
        // Byte for byte what the suite wrote, but for the added format line.
        assertThat(Files.readString(file).replace("  \"format\" : \"servebench-measurements/1\",\n", "")
                + "").isEqualTo(Files.readString(FIXTURE_RUN.resolve("measurements.json")).stripTrailing());
    }

    @Test
    void aNewerVersionIsRefusedNamingTheFile() throws IOException {
        Path file = dir.resolve("measurements.json");
        MeasurementsFile.read(FIXTURE_RUN.resolve("measurements.json")).write(file);
        Files.writeString(file, Files.readString(file).replace("servebench-measurements/1", "servebench-measurements/2"));
        assertThatThrownBy(() -> MeasurementsFile.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage(file + ": format servebench-measurements/2 is newer than this servebench (reads /1)");

        Path verdicts = Files.writeString(dir.resolve("verdicts.json"), """
                {"format": "servebench-verdicts/3", "spec": "s", "verdicts": []}""");
        assertThatThrownBy(() -> RunVerdictsJson.Document.read(verdicts))
                .hasMessage(verdicts + ": format servebench-verdicts/3 is newer than this servebench (reads /1)");
    }

    @Test
    void anEnvironmentWhoseFingerprintItsFieldsDoNotGiveIsRefused() throws IOException {
        Path file = Files.writeString(dir.resolve("environment.json"), Files.readString(
                FIXTURE_RUN.resolve("environment.json")).replace("b2c85828eb39af9a", "0000000000000000"));
        assertThatThrownBy(() -> RunEnvironment.read(file)).hasMessageStartingWith(file
                + ": fingerprint 0000000000000000 does not match its fields (b2c85828eb39af9a)");
    }

    @Test
    void verdictsRoundTripAndAnOlderFileWithoutFormatOrSummaryReads() throws IOException {
        Path file = dir.resolve("verdicts.json");
        RunVerdictsJson verdicts = new RunVerdictsJson(file, "demo");
        verdicts.add(new RunVerdictsJson.Entry("a", RunVerdictsJson.Kind.VALIDITY, Optional.of("concurrency=4"),
                RunVerdictsJson.Outcome.PASS, "held", "held"));
        verdicts.add(new RunVerdictsJson.Entry("b", RunVerdictsJson.Kind.EXPECTATION, Optional.empty(),
                RunVerdictsJson.Outcome.NOT_JUDGED, "no value", "no value"));
        assertThat(Files.readString(file)).contains("\"point\" : null", "\"kind\" : \"validity\"",
                "\"outcome\" : \"not_judged\"");
        RunVerdictsJson.Document read = RunVerdictsJson.Document.read(file);
        assertThat(read.spec()).isEqualTo("demo");
        assertThat(read.verdicts()).isEqualTo(verdicts.entries());

        Path old = Files.writeString(dir.resolve("old.json"), """
                {"spec": "demo", "verdicts": [{"name": "x", "kind": "cross_check", "point": "concurrency=1",
                 "outcome": "fail", "reason": "r"}]}""");
        assertThat(RunVerdictsJson.Document.read(old).verdicts()).containsExactly(new RunVerdictsJson.Entry("x",
                RunVerdictsJson.Kind.CROSS_CHECK, Optional.of("concurrency=1"), RunVerdictsJson.Outcome.FAIL, "r", ""));
    }

    @Test
    void baselinesStateTheirFormatAndRefuseANewerOne() throws IOException {
        Path file = BaselineFiles.update(RunFixtures.run(dir, "run", true), dir.resolve("baselines"));
        assertThat(Files.readString(file)).startsWith("{\n  \"format\" : \"servebench-baseline/1\"");
        BaselineFile baseline = BaselineFile.read(file);
        baseline.write(dir.resolve("copy.json"));
        assertThat(BaselineFile.read(dir.resolve("copy.json"))).isEqualTo(baseline);

        Files.writeString(file, Files.readString(file).replace("servebench-baseline/1", "servebench-baseline/2"));
        assertThatThrownBy(() -> BaselineFiles.readBaseline(file))
                .hasMessage(file + ": format servebench-baseline/2 is newer than this servebench (reads /1)");
    }

    @Test
    void historyLinesStateTheirFormatAndOldLinesRead() throws IOException {
        Path history = RunHistory.append(RunFixtures.run(dir, "night", true), dir.resolve("history"));
        String line = Files.readString(history);
        assertThat(line).startsWith("{\"format\":\"servebench-history/1\",\"spec\":\"demo\"");
        Files.writeString(history, line.replace("\"format\":\"servebench-history/1\",", "") + line);
        List<RunHistory.Entry> entries = RunHistory.read(history, null);
        assertThat(entries).hasSize(2);
        assertThat(entries.get(0)).isEqualTo(entries.get(1));

        Files.writeString(history, line.replace("history/1", "history/2"));
        assertThatThrownBy(() -> RunHistory.read(history, null))
                .hasMessage(history + ":1: format servebench-history/2 is newer than this servebench (reads /1)");
    }

    @Test
    void kernelFilesRoundTripAndRefuseANewerVersion() throws IOException {
        Path measurements = dir.resolve("kernel-measurements.json");
        KernelMeasurements.Value value = new KernelMeasurements.Value(KernelMetric.MEMCPY_GBPS,
                Map.of("bytes", "1024", "threads", "1"), 12.5, List.of(List.of(12.0, 13.0)));
        KernelMeasurementsJson.write(measurements, "test run", List.of(value));
        assertThat(Files.readString(measurements)).startsWith(
                "{\n  \"format\" : \"servebench-kernel-measurements/1\",\n  \"run\" : \"test run\"");
        assertThat(KernelMeasurementsJson.read(measurements).values()).containsExactly(value);
        Files.writeString(measurements, Files.readString(measurements).replace("measurements/1", "measurements/2"));
        assertThatThrownBy(() -> KernelMeasurementsJson.read(measurements)).hasMessageContaining("is newer");

        KernelReport report = new KernelReport(List.of(new CopyFigure(1 << 20, 1, 0.1, 0.01, 20.0, 20.0)),
                List.of(), List.of(), List.of());
        report.write(dir);
        assertThat(Files.readString(dir.resolve("figures.json"))).startsWith(
                "{\n  \"format\" : \"servebench-kernel-figures/1\"");
        assertThat(KernelReport.read(dir)).isEqualTo(report);
        Files.writeString(dir.resolve("figures.json"), Files.readString(dir.resolve("figures.json"))
                .replace("  \"format\" : \"servebench-kernel-figures/1\",\n", ""));
        assertThat(KernelReport.read(dir)).isEqualTo(report);
    }
}
