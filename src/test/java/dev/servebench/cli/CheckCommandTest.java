package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.suite.SuiteRun;
import dev.servebench.testserver.ScriptedServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import picocli.CommandLine;

/**
 * {@code servebench check} runs the perf suite through the JUnit Platform launcher: the same tests, with the
 * same outcomes, as the suite run by the engine (what failsafe and the engine tests run), against the
 * scripted server; its JUnit XML, verdicts.json and HTML report are written; a failed test is exit 1.
 */
class CheckCommandTest {

    @TempDir
    Path directory;

    private ScriptedServer server;

    @BeforeEach
    void startServer() {
        server = SuiteRun.startScriptedServer();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void checkRunsTheSuitesTestsWithTheSameOutcomesAsTheEngineAndWritesItsFiles() throws Exception {
        Path spec = writeSpec("""
                expect:
                  - output_throughput >= 1000000000 tok/s @ concurrency=4
                  - total_throughput >= 1 tok/s @ concurrency=4
                  - request_goodput > 1000000 req/s @ concurrency=4
                kernels:
                  - moe_gflops@backend=native,tokens=64 >= 1 x moe_gflops@backend=ggml-f16
                """);
        // A kernel run with no figures file: both sides judge the kernel line on it (not judged), and neither runs
        // the kernel benchmarks itself, as it would without one.
        Path noKernelRun = Files.createDirectories(directory.resolve("kernels-without-results"));
        EngineExecutionResults engine = SuiteRun.onSpec(spec, directory.resolve("engine"),
                "servebench.kernels.results", noKernelRun.toString());
        Map<String, String> byEngine = new HashMap<>();
        engine.testEvents().succeeded().list().forEach(e -> byEngine.put(e.getTestDescriptor().getDisplayName(), "passed"));
        engine.testEvents().failed().list().forEach(e -> byEngine.put(e.getTestDescriptor().getDisplayName(), "failed"));
        engine.testEvents().aborted().list().forEach(e -> byEngine.put(e.getTestDescriptor().getDisplayName(), "skipped"));

        Path reports = directory.resolve("check");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        // The suite prints its console summary to System.out, as under failsafe. Replaced before picocli is
        // made: it would otherwise take a changed System.out for its own output stream.
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        int exit;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            CommandLine cli = Main.commandLine();
            cli.setOut(new PrintWriter(out));
            cli.setErr(new PrintWriter(err));
            exit = cli.execute("check", spec.toString(), "--reports", reports.toString(),
                    "--kernel-results", noKernelRun.toString(), "--history", directory.resolve("no-history").toString());
        } finally {
            System.setOut(console);
        }

        assertThat(exit).as(err.toString()).isEqualTo(CheckCommand.TEST_FAILED);
        Map<String, String> byCheck = junitXmlOutcomes(reports.resolve("junit"));
        // Same tests, same outcomes; and the spec's failures are there (so both runs judged, not just agreed).
        assertThat(byCheck).isEqualTo(byEngine).containsEntry("total_throughput ≥ 1 tok/s @ concurrency=4", "passed")
                .containsEntry("output_throughput ≥ 1000000000 tok/s @ concurrency=4", "failed")
                .containsEntry("request_goodput > 1000000 req/s @ concurrency=4", "failed")
                .containsEntry("moe_gflops@backend=native,tokens=64 ≥ 1 × moe_gflops@backend=ggml-f16", "failed")
                .containsEntry("measure @ concurrency=4", "passed");
        Path run = Files.list(reports).filter(p -> p.getFileName().toString().startsWith("scripted-")).toList()
                .getFirst();
        assertThat(run.resolve("verdicts.json")).content().contains("\"output_throughput ≥ 1000000000 tok/s @ concurrency=4\"")
                .contains("no kernel results at " + noKernelRun);
        assertThat(run.resolve("report.html")).exists();
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains(" servebench perf run: scripted ");
        assertThat(out.toString()).contains("Tests run: " + byEngine.size()
                + ", Failures: 3, Skipped (aborted): 1", "report     " + run.resolve("report.html"));
    }

    @Test
    void anInvalidSpecIsBadInputWithEveryErrorAndNothingRuns() throws IOException {
        Path spec = writeSpec("""
                expect:
                  - output_tokens_per_sec >= 1 tok/s @ concurrency=4
                  - p99_ttft_ms <= 2 s @ concurrency=4
                """);
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));

        int exit = cli.execute("check", spec.toString(), "--reports", directory.resolve("check").toString());

        assertThat(exit).isEqualTo(Main.BAD_INPUT);
        assertThat(err.toString()).contains("scripted.yaml:17:", "scripted.yaml:18:", "output_throughput");
        assertThat(directory.resolve("check")).doesNotExist();
    }

    @Test
    void aTargetTheSpecCannotBeRunOnIsBadInputBeforeAnythingRuns() throws IOException {
        Path spec = writeSpec("");
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(new StringWriter()));
        cli.setErr(new PrintWriter(err));

        int exit = cli.execute("check", spec.toString(), "--target", "process", "--reports",
                directory.resolve("check").toString());
        int unknown = cli.execute("check", spec.toString(), "--target", "kubernetes", "--reports",
                directory.resolve("check").toString());

        assertThat(exit).as(err.toString()).isEqualTo(Main.BAD_INPUT);
        assertThat(unknown).as(err.toString()).isEqualTo(Main.BAD_INPUT);
        assertThat(err.toString()).contains("servebench.target=process but spec scripted describes a url target",
                "--target kubernetes: unknown target kind; expected embedded, url, process or container");
        assertThat(directory.resolve("check")).doesNotExist();
    }

    /** testcase name → passed, failed or skipped, from every TEST-*.xml in {@code junit}. */
    private static Map<String, String> junitXmlOutcomes(Path junit) throws Exception {
        Map<String, String> outcomes = new HashMap<>();
        List<Path> files;
        try (Stream<Path> listed = Files.list(junit)) {
            files = listed.filter(p -> p.getFileName().toString().matches("TEST-.*\\.xml")).toList();
        }
        assertThat(files).isNotEmpty();
        for (Path file : files) {
            NodeList cases = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile())
                    .getElementsByTagName("testcase");
            for (int i = 0; i < cases.getLength(); i++) {
                Element testcase = (Element) cases.item(i);
                String outcome = testcase.getElementsByTagName("failure").getLength()
                        + testcase.getElementsByTagName("error").getLength() > 0 ? "failed"
                        : testcase.getElementsByTagName("skipped").getLength() > 0 ? "skipped" : "passed";
                outcomes.put(testcase.getAttribute("name"), outcome);
            }
        }
        return outcomes;
    }

    private Path writeSpec(String expectations) throws IOException {
        return SuiteRun.writeScriptedSpec(directory, server.baseUri(), expectations);
    }
}
