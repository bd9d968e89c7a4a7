package dev.servebench.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BaselineFilesTest {

    @TempDir
    Path directory;

    @Test
    void aValidRunBecomesTheBaselineOfItsSpecAndFingerprintAndReadsBackAsSamples() throws IOException {
        Path run = run("run-1", true);

        Path file = BaselineFiles.update(run, directory.resolve("baselines"));

        assertThat(file).isEqualTo(directory.resolve("baselines").resolve("demo").resolve(RunFixtures.FINGERPRINT + ".json"));
        RunSamples baseline = BaselineFiles.readBaseline(file);
        assertThat(baseline.fingerprint()).isEqualTo(RunFixtures.FINGERPRINT);
        assertThat(baseline.point("concurrency=8")).hasValueSatisfying(point -> {
            assertThat(point.valid()).isTrue();
            assertThat(point.metrics().get("output_throughput")).containsExactly(100.0, 104.0, 98.0);
        });
        assertThat(BaselineFiles.readRun(run)).usingRecursiveComparison().isEqualTo(baseline);
    }

    @Test
    void anInvalidRunOrAMissingFileIsRefusedWithTheReason() throws IOException {
        Path invalid = run("run-2", false);
        assertThatThrownBy(() -> BaselineFiles.update(invalid, directory.resolve("baselines")))
                .hasMessageContaining("invalid load points").hasMessageContaining("concurrency=8");
        assertThatThrownBy(() -> BaselineFiles.update(directory.resolve("nothing"), directory.resolve("baselines")))
                .hasMessageContaining("no measurements.json");
    }

    @Test
    void aBaselinePoolsItsNewestRunsAndCountsARunAddedTwiceOnce() throws IOException {
        Path root = directory.resolve("baselines");
        Path file = null;
        for (int i = 1; i <= 4; i++) {
            file = BaselineFiles.update(RunFixtures.run(directory, "run-" + i, true, i, RunFixtures.MACHINE), root, 3);
        }
        BaselineFiles.update(directory.resolve("run-4"), root, 3);

        double[] pooled = BaselineFiles.readBaseline(file).point("concurrency=8").orElseThrow().metrics()
                .get("output_throughput");
        // runs 2, 3, 4 (throughputs divided by 2, 3, 4), three repeats each; run 1 dropped, run 4 once
        assertThat(pooled).containsExactly(50.0, 52.0, 49.0, 100.0 / 3, 104.0 / 3, 98.0 / 3, 25.0, 26.0, 24.5);
        assertThatThrownBy(() -> BaselineFiles.update(directory.resolve("run-1"), root, 0))
                .hasMessageContaining("keep (0) must be >= 1");
    }

    @Test
    void aBaselineOfTheOneRunFormatStillReads() throws IOException {
        Path file = directory.resolve("old.json");
        Path run = run("run-old", true);
        java.nio.file.Files.writeString(file, "{\"source_run\": \"x\", \"environment\": "
                + java.nio.file.Files.readString(run.resolve("environment.json")) + ", \"measurements\": "
                + java.nio.file.Files.readString(run.resolve("measurements.json")) + "}");

        assertThat(BaselineFiles.readBaseline(file)).usingRecursiveComparison().isEqualTo(BaselineFiles.readRun(run));
    }

    private Path run(String name, boolean valid) throws IOException {
        return RunFixtures.run(directory, name, valid);
    }
}
