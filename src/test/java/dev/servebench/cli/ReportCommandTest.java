package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ReportCommandTest {

    @TempDir
    Path directory;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CommandLine cli = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

    @Test
    void aMissingRunDirectoryIsBadInputThatSaysWhatWasExpected() {
        Path missing = directory.resolve("no-such-run");
        assertThat(cli.execute("report", "--run", missing.toString())).isEqualTo(2);
        assertThat(err.toString()).startsWith("servebench: " + missing + ": no measurements.json here nor in a run"
                + " directory below; expected a perf run directory");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aBrokenMeasurementsFileNamesItself() throws IOException {
        Path run = Files.createDirectories(directory.resolve("perf").resolve("demo-20261202-153117"));
        Files.writeString(run.resolve("measurements.json"), "{\"spec\": \"demo\", \"points\": 3}");
        assertThat(cli.execute("report", "--run", directory.resolve("perf").toString())).isEqualTo(2);
        assertThat(err.toString()).contains(run.resolve("measurements.json") + ": points: not as a measurements.json has it");
    }

    @Test
    void writesTheReportOfTheNewestRunNextToItAndPrintsWhere() throws IOException {
        Path run = Files.createDirectories(directory.resolve("perf").resolve("demo-20261202-153117"));
        Files.writeString(run.resolve("measurements.json"), """
                {"spec": "demo", "spec_sha256": "%s", "target": "url", "repeats": 1,
                 "points": [{"point": "concurrency=8", "requested": 64, "valid": true, "repeats": [
                   {"output_throughput": 622.0, "input_throughput": 3118.0, "total_throughput": 3740.0,
                    "peak_output_throughput": 1310.0, "p99_ttft_ms": 21.0}]}]}
                """.formatted("a".repeat(64)));
        Path history = Files.createDirectories(directory.resolve("history"));

        assertThat(cli.execute("report", "--run", directory.resolve("perf").toString(), "--history",
                history.toString())).as(err.toString()).isZero();

        Path report = run.resolve("report.html");
        assertThat(out.toString()).isEqualTo("report " + report + System.lineSeparator());
        assertThat(Files.readString(report)).contains("<section id=\"throughput\">", "622",
                "no environment.json in " + run, "no verdicts.json in " + run);
    }

    @Test
    void anExplicitOutputFileAndAMissingHistoryDirectory() throws IOException {
        Path run = Files.createDirectories(directory.resolve("run"));
        Files.writeString(run.resolve("measurements.json"), """
                {"spec": "demo", "points": []}
                """);
        Path target = directory.resolve("out").resolve("demo.html");
        assertThat(cli.execute("report", "--run", run.toString(), "--out", target.toString())).isZero();
        assertThat(target).content().contains("measurements.json lists no measured load point");

        Path nowhere = directory.resolve("nowhere");
        assertThat(cli.execute("report", "--run", run.toString(), "--history", nowhere.toString())).isEqualTo(2);
        assertThat(err.toString()).contains(nowhere + ": not a directory; expected a history directory");
    }
}
