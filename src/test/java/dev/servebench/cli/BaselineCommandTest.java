package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.history.RunFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BaselineCommandTest {

    @TempDir
    Path directory;

    @Test
    void updatesTheBaselineAndReportsBadInputInOneLine() throws IOException {
        Path run = RunFixtures.run(directory, "run", true);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

        assertThat(cli.execute("baseline", "update", "--from", run.toString(), "--root",
                directory.resolve("b").toString())).isZero();
        assertThat(out.toString()).contains(directory.resolve("b").resolve("demo")
                .resolve(RunFixtures.FINGERPRINT + ".json").toString());
        assertThat(cli.execute("baseline", "update", "--from", directory.resolve("missing").toString())).isEqualTo(2);
        assertThat(err.toString().strip()).doesNotContain("\n").contains("no measurements.json");
    }
}
