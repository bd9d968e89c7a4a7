package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code servebench kernels run} refuses bad input before any benchmark starts (exit 2, one line saying what
 * was wrong), so these tests run no JMH; the runs themselves are the acceptance runs in docs/kernels.md.
 */
class KernelsCommandTest {

    @TempDir
    Path directory;

    @Test
    void anUnknownModeIsBadInputNamingTheModes() {
        CliRun run = CliRun.servebench("kernels", "run", "--mode", "quick", "--output", output().toString());

        assertThat(run.exit()).isEqualTo(Main.BAD_INPUT);
        assertThat(run.err()).contains("kernel mode \"quick\"; expected smoke or full");
        assertThat(output()).doesNotExist();
    }

    @Test
    void anInvalidSpecStopsTheRunWithItsErrors() throws IOException {
        Path spec = Files.writeString(directory.resolve("bad.yaml"), """
                name: bad
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep: {concurrency: [1]}
                kernels:
                  - moe_gflops@backend=native >= 1 x no_such_figure
                """);

        CliRun run = CliRun.servebench("kernels", "run", "--spec", spec.toString(), "--output", output().toString());

        assertThat(run.exit()).isEqualTo(Main.BAD_INPUT);
        assertThat(run.err()).contains("bad.yaml:5:");
        assertThat(output()).doesNotExist();
    }

    @Test
    void aParameterWithoutValuesAndAMissingLibraryAreBadInput() {
        CliRun emptyValue = CliRun.servebench("kernels", "run", "--param", "tokens=", "--output", output().toString());
        Path missing = directory.resolve("missing.so");
        String previous = System.getProperty("servebench.kernels.lib");
        System.setProperty("servebench.kernels.lib", missing.toString());
        CliRun missingLibrary;
        try {
            missingLibrary = CliRun.servebench("kernels", "run", "--output", output().toString());
        } finally {
            if (previous == null) {
                System.clearProperty("servebench.kernels.lib");
            } else {
                System.setProperty("servebench.kernels.lib", previous);
            }
        }

        assertThat(emptyValue.exit()).isEqualTo(Main.BAD_INPUT);
        assertThat(emptyValue.err()).contains("servebench kernels: parameter tokens=; expected NAME=V1,V2");
        assertThat(missingLibrary.exit()).isEqualTo(Main.BAD_INPUT);
        assertThat(missingLibrary.err()).contains("servebench kernels: -Dservebench.kernels.lib=" + missing
                + ": no such file");
        assertThat(output()).doesNotExist();
    }

    private Path output() {
        return directory.resolve("kernel-run");
    }
}
