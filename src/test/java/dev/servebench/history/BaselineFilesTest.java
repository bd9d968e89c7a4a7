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

        assertThat(file).isEqualTo(directory.resolve("baselines").resolve("demo").resolve("0123456789abcdef.json"));
        RunSamples baseline = BaselineFiles.readBaseline(file);
        assertThat(baseline.fingerprint()).isEqualTo("0123456789abcdef");
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

    private Path run(String name, boolean valid) throws IOException {
        return RunFixtures.run(directory, name, valid);
    }
}
