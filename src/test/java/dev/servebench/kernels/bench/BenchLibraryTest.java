package dev.servebench.kernels.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The library named on the runner's command line reaches every JMH fork, and a wrong one stops the run. */
class BenchLibraryTest {

    @TempDir
    Path directory;

    @Test
    void noPropertyMeansTheBuildsLibraryAndNoForkProperty() {
        assertThat(BenchLibrary.configured(null)).isEmpty();
        assertThat(BenchLibrary.configured("  ")).isEmpty();
        assertThat(BenchLibrary.forkArguments(Optional.empty()))
                .containsExactly("--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Xmx2g")
                .noneMatch(argument -> argument.contains("servebench.kernels.lib"));
    }

    @Test
    void aConfiguredLibraryIsPassedToForksAsAnAbsolutePath() throws IOException {
        Path library = Files.createFile(directory.resolve("libother.so"));
        Path relative = Path.of("").toAbsolutePath().relativize(library);

        Optional<Path> configured = BenchLibrary.configured(relative.toString());

        assertThat(configured).contains(library.toAbsolutePath().normalize());
        assertThat(BenchLibrary.forkArguments(configured))
                .endsWith("-Dservebench.kernels.lib=" + library.toAbsolutePath().normalize());
    }

    @Test
    void aMissingLibraryFailsWithOneLineNamingIt() {
        Path missing = directory.resolve("missing.so");

        assertThatThrownBy(() -> BenchLibrary.configured(missing.toString()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("-Dservebench.kernels.lib=" + missing + ": no such file (" + missing + ")");
    }

    @Test
    void thePomPassesThePropertyToTheRunnerInBothProfiles() throws IOException {
        String pom = Files.readString(Path.of("pom.xml"));
        String runner = "\"-Dservebench.kernels.lib=${servebench.kernels.lib}\" -cp %classpath "
                + "dev.servebench.cli.Main kernels run";

        assertThat(pom.split(java.util.regex.Pattern.quote(runner), -1)).as("-Pkernels' exec line starting the runner")
                .hasSize(2);
        // -Pperf: failsafe's JVM runs the kernel suite (KernelRunSettings.standard reads the property there).
        assertThat(pom).contains("<servebench.kernels.lib>${servebench.kernels.lib}</servebench.kernels.lib>")
                .contains("<servebench.kernels.lib></servebench.kernels.lib>");
    }

    @Test
    void theSuitesSettingsReadTheProperty() throws IOException {
        Path library = Files.createFile(directory.resolve("libsuite.so"));
        String previous = System.getProperty("servebench.kernels.lib");
        System.setProperty("servebench.kernels.lib", library.toString());
        try {
            assertThat(KernelRunSettings.standard(KernelMode.SMOKE, directory).library())
                    .contains(library.toAbsolutePath().normalize());
        } finally {
            if (previous == null) {
                System.clearProperty("servebench.kernels.lib");
            } else {
                System.setProperty("servebench.kernels.lib", previous);
            }
        }
    }
}
