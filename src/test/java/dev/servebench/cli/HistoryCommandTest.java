package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.history.RunFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class HistoryCommandTest {

    @TempDir
    Path directory;

    @Test
    void nightlyRunsAppendAndAStepChangeIsFoundWithItsRunIndex() throws IOException {
        StringWriter out = new StringWriter();
        CommandLine cli = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(new StringWriter()));
        Path root = directory.resolve("history");
        for (int night = 0; night < 24; night++) {
            // Small deterministic wobble, then a 20 % slowdown from night 12 on.
            double slowdown = (night < 12 ? 1.0 : 1.2) * (1 + 0.01 * ((night * 7) % 5 - 2));
            Path run = RunFixtures.run(directory, "night-" + night, true, slowdown, RunFixtures.MACHINE);
            assertThat(cli.execute("history", "append", "--from", run.toString(), "--root", root.toString())).isZero();
        }
        Path history = root.resolve("demo.jsonl");
        assertThat(Files.readAllLines(history)).hasSize(24);

        assertThat(cli.execute("history", "trend", "--history", history.toString())).isZero();

        assertThat(out.toString()).contains("24 runs of environment " + RunFixtures.FINGERPRINT)
                .contains("output_throughput @ concurrency=8: -16").contains("between run 11 and 12")
                .contains("p99_ttft_ms @ concurrency=8: +20");
        assertThat(cli.execute("history", "trend", "--history", root.toString())).isZero();
        assertThat(out.toString()).contains("demo.jsonl:");
    }

    @Test
    void flatHistoryHasNoChangePoint() throws IOException {
        StringWriter out = new StringWriter();
        CommandLine cli = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(new StringWriter()));
        Path root = directory.resolve("history");
        for (int night = 0; night < 24; night++) {
            Path run = RunFixtures.run(directory, "night-" + night, true, 1 + 0.01 * ((night * 7) % 5 - 2),
                    RunFixtures.MACHINE);
            cli.execute("history", "append", "--from", run.toString(), "--root", root.toString());
        }
        assertThat(cli.execute("history", "trend", "--history", root.resolve("demo.jsonl").toString())).isZero();
        assertThat(out.toString()).contains("0 change point(s)");
    }
}
