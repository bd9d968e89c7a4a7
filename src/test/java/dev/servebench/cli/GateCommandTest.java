package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.history.BaselineFiles;
import dev.servebench.history.RunFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GateCommandTest {

    @TempDir
    Path directory;

    private Path baseline;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private CommandLine cli;

    @BeforeEach
    void makeBaseline() throws IOException {
        baseline = BaselineFiles.update(RunFixtures.run(directory, "base", true), directory.resolve("baselines"));
        cli = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
    }

    @Test
    void theSameNumbersPassWithOneJUnitCasePerMetricAndLoadPoint() throws IOException {
        Path run = RunFixtures.run(directory, "same", true);

        assertThat(cli.execute("gate", "--run", run.toString(), "--baseline", baseline.toString())).isZero();

        String xml = Files.readString(run.resolve("gate-junit.xml"));
        assertThat(xml).contains("name=\"output_throughput @ concurrency=8\"", "name=\"p99_ttft_ms @ concurrency=8\"")
                .contains("tests=\"2\"").contains("failures=\"0\"");
        assertThat(Files.readString(run.resolve("gate.md"))).contains("**No regression**");
    }

    @Test
    void aTwentyFivePercentSlowdownFailsBothMetricsAndNamesTheEvidence() throws IOException {
        // Beyond every default tolerance (throughput 5 %, p99 latency 15 %), with three repeats a side.
        Path run = RunFixtures.run(directory, "slow", true, 1.25, RunFixtures.MACHINE);

        assertThat(cli.execute("gate", "--run", run.toString(), "--baseline", baseline.toString()))
                .isEqualTo(GateCommand.REGRESSION);

        String xml = Files.readString(run.resolve("gate-junit.xml"));
        assertThat(xml).contains("failures=\"2\"").contains("output_throughput @ concurrency=8: 100")
                .contains("CI").contains("Yuen").contains("REGRESSION");
        assertThat(out.toString()).contains("**2 regression(s)**").contains("p99_ttft_ms @ concurrency=8");
    }

    @Test
    void aSteadyMachineIsReportedAndTheServersNumbersAreJudged() throws IOException {
        Path probed = probedBaseline();
        Path run = RunFixtures.run(directory, "slow-server", true, 1.25, RunFixtures.MACHINE, 1.01);

        assertThat(cli.execute("gate", "--run", run.toString(), "--baseline", probed.toString()))
                .isEqualTo(GateCommand.REGRESSION);

        assertThat(Files.readString(run.resolve("gate.md"))).contains("**2 regression(s)**")
                .contains("machine speed probe: 40 ms (n=3) → 40.4 ms (n=3) (+1.0 %: slower)").contains("→ steady");
        assertThat(Files.readString(run.resolve("gate-junit.xml"))).contains("tests=\"3\"").contains("failures=\"2\"")
                .contains("name=\"machine speed probe\"").contains("errors=\"0\"");
    }

    @Test
    void aRunOnAMachineTwentyPercentFasterIsInvalidAndItsComparisonsAreShownNotJudged() throws IOException {
        Path probed = probedBaseline();
        // The server is 25 % slower, the machine 20 % faster: neither "regression" nor "no change" would be true.
        Path run = RunFixtures.run(directory, "fast-machine", true, 1.25, RunFixtures.MACHINE, 0.8);

        assertThat(cli.execute("gate", "--run", run.toString(), "--baseline", probed.toString()))
                .isEqualTo(GateCommand.INVALID_RUN);

        assertThat(err.toString()).contains("invalid run: machine speed probe: 40 ms (n=3) → 32 ms (n=3)"
                + " (−20.0 %: faster)").contains("MACHINE DRIFT");
        assertThat(Files.readString(run.resolve("gate.md"))).contains("**Not judged: the machine drifted**")
                .contains("REGRESSION (not judged)").doesNotContain("**2 regression(s)**");
        assertThat(Files.readString(run.resolve("gate-junit.xml"))).contains("tests=\"3\"").contains("failures=\"0\"")
                .contains("errors=\"1\"").contains("type=\"machine-drift\"").contains("skipped=\"2\"")
                .contains("not judged (machine drift): output_throughput @ concurrency=8");
    }

    /** A baseline of one run whose machine speed probe read about 40 ms. */
    private Path probedBaseline() throws IOException {
        return BaselineFiles.update(RunFixtures.run(directory, "probed-base", true, 1.0, RunFixtures.MACHINE, 1.0),
                directory.resolve("probed-baselines"));
    }

    @Test
    void findsTheNewestRunAndItsBaselineByFingerprint() throws IOException {
        Path runs = Files.createDirectories(directory.resolve("perf"));
        RunFixtures.run(runs, "demo-20261201-000000", true, 1.25, RunFixtures.MACHINE);
        Path newest = RunFixtures.run(runs, "demo-20261202-000000", true);
        Files.setLastModifiedTime(newest.resolve("measurements.json"),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));

        assertThat(cli.execute("gate", "--run", runs.toString(), "--baselines", directory.resolve("baselines")
                .toString())).isZero();
        assertThat(newest.resolve("gate-junit.xml")).exists();
    }

    @Test
    void anInvalidRunAndAForeignBaselineAreTheirOwnExitCodes() throws IOException {
        Path invalid = RunFixtures.run(directory, "invalid", false);
        assertThat(cli.execute("gate", "--run", invalid.toString(), "--baseline", baseline.toString()))
                .isEqualTo(GateCommand.INVALID_RUN);
        assertThat(err.toString()).contains("invalid run");

        Path elsewhere = RunFixtures.run(directory, "other-machine", true, 1.0, "fedcba9876543210");
        assertThat(cli.execute("gate", "--run", elsewhere.toString(), "--baseline", baseline.toString()))
                .isEqualTo(GateCommand.BAD_INPUT);
        assertThat(err.toString()).contains("fingerprint " + RunFixtures.fingerprint("fedcba9876543210") + " differs");
    }

    @Test
    void aGateThatCouldNotJudgeAGatedComparisonDoesNotPass() throws IOException {
        // One repeat (the default spec's setting): no significance test is possible, so nothing is compared.
        Path run = Files.createDirectories(directory.resolve("one-repeat"));
        Files.copy(RunFixtures.run(directory, "template", true).resolve("environment.json"),
                run.resolve("environment.json"));
        Files.writeString(run.resolve("measurements.json"), """
                {"spec": "demo", "spec_sha256": "%s", "target": "url", "repeats": 1,
                 "points": [{"point": "concurrency=8", "requested": 64, "valid": true, "repeats": [
                   {"output_throughput": 100.0, "p99_ttft_ms": 20.0}]}]}
                """.formatted("a".repeat(64)));

        assertThat(cli.execute("gate", "--run", run.toString(), "--baseline", baseline.toString()))
                .isEqualTo(GateCommand.NOT_JUDGED);

        assertThat(err.toString()).contains("not judged: 2 gated metric × load point comparison(s)");
        String markdown = Files.readString(run.resolve("gate.md"));
        assertThat(markdown.lines().skip(2).findFirst().orElseThrow())
                .startsWith("**Not judged: 2 of 2 gated comparison(s) could not be made**");
        String xml = Files.readString(run.resolve("gate-junit.xml"));
        assertThat(xml).contains("errors=\"2\"", "type=\"not-judged\"", "failures=\"0\"");
    }

    @Test
    void aLoadPointMissingOnOneSideIsNotJudgedNotSkipped() throws IOException {
        Path run = Files.createDirectories(directory.resolve("other-point"));
        Files.copy(RunFixtures.run(directory, "template2", true).resolve("environment.json"),
                run.resolve("environment.json"));
        Files.writeString(run.resolve("measurements.json"), """
                {"spec": "demo", "spec_sha256": "%s", "target": "url", "repeats": 3,
                 "points": [{"point": "concurrency=16", "requested": 64, "valid": true, "repeats": [
                   {"output_throughput": 100.0}, {"output_throughput": 101.0}, {"output_throughput": 99.0}]}]}
                """.formatted("a".repeat(64)));

        assertThat(cli.execute("gate", "--run", run.toString(), "--baseline", baseline.toString()))
                .isEqualTo(GateCommand.NOT_JUDGED);
        assertThat(Files.readString(run.resolve("gate.md")))
                .contains("`output_throughput @ concurrency=16`", "`output_throughput @ concurrency=8`",
                        "`p99_ttft_ms @ concurrency=8`");
    }
}
