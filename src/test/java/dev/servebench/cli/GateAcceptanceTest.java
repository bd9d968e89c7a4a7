package dev.servebench.cli;

import dev.servebench.history.RunGate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.baseline.GateOutcome;
import dev.servebench.baseline.GateVerdict;
import dev.servebench.history.BaselineFiles;
import dev.servebench.history.RunSamples;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The gate's acceptance on recorded runs of the embedded-gate spec (2 load points × 8 repeats, in sequence)
 * on the embedded engine, recorded by {@code bin/record-gate-check} on the 2-core build machine on 2026-12-02:
 * six A/A runs of one build, interleaved with three runs whose engine stretched every inter-token gap by
 * 15 % ({@code servebench.embedded.token-delay=15%}). Baselines pool three runs, as {@code baseline update
 * --keep 3} builds them; every choice of three A/A runs is a baseline. That recording predates the machine
 * speed probe; {@link RecordedMachineDriftTest} covers the newer one, made with it. docs/gate.md has the
 * numbers of both.
 */
class GateAcceptanceTest {

    static final Path RECORDED = Path.of("fixtures", "gate-check", "embedded-gate-2core");
    /** The newest recording: made with the gate spec as it is now, and with the machine speed probe. */
    static final Path NEWEST = Path.of("fixtures", "gate-check", "embedded-gate-2core-probe");
    static final Path SPEC = Path.of("fixtures", "specs", "embedded-gate.yaml");
    static final int BASELINE_RUNS = 3;

    /** What a 15 % longer inter-token gap may be reported as: slower decoding, and what follows from it. */
    static final List<String> DECODE_METRICS = List.of("median_itl_ms", "p99_itl_ms", "median_tpot_ms", "p99_tpot_ms",
            "median_e2e_latency_ms", "p99_e2e_latency_ms", "output_throughput", "input_throughput", "total_throughput",
            "request_throughput");

    @TempDir
    Path directory;
    private int baselines;

    /** Each recording holds the spec its runs were made with (spec.yaml); the newest is the spec as it is now. */
    @Test
    void theRecordingsAreRunsOfTheSpecStoredBesideThem() throws IOException {
        for (Path recording : List.of(RECORDED, NEWEST)) {
            String sha = dev.servebench.spec.SpecReader.read(recording.resolve("spec.yaml")).source().sha256();
            for (String kind : List.of("aa", "slow")) {
                for (Path run : runs(recording, kind)) {
                    assertThat(BaselineFiles.readRun(run).specSha256()).as("%s: spec hash", run).isEqualTo(sha);
                }
            }
        }
        assertThat(Files.readString(NEWEST.resolve("spec.yaml"))).as("the newest recording is of %s", SPEC)
                .isEqualTo(Files.readString(SPEC));
    }

    @Test
    void runsOfTheSameBuildPassTheGateInAtLeast95PercentOfComparisons() throws IOException {
        List<Path> runs = runs("aa");
        assertThat(runs).as("recorded A/A runs under %s", RECORDED).hasSizeGreaterThanOrEqualTo(BASELINE_RUNS + 2);
        int comparisons = 0;
        List<String> failed = new ArrayList<>();
        for (Path current : runs) {
            List<Path> others = new ArrayList<>(runs);
            others.remove(current);
            for (List<Path> chosen : choices(others, BASELINE_RUNS)) {
                comparisons++;
                List<String> regressions = compare(chosen, current).stream().filter(o -> o.verdict().fails())
                        .map(GateOutcome::message).toList();
                if (!regressions.isEmpty()) {
                    failed.add(names(chosen) + " → " + current.getFileName() + ": " + regressions);
                }
            }
        }
        double passRate = 1 - (double) failed.size() / comparisons;
        assertThat(passRate).as("A/A comparisons without a regression: %d of %d; failed: %s",
                comparisons - failed.size(), comparisons, failed).isGreaterThanOrEqualTo(0.95);
    }

    /**
     * Every comparison of a slowed run fails the gate, only on decode metrics (never TTFT, which the delay
     * leaves alone), and at the decode-bound point (concurrency 16) median ITL is among them in at least 95 %
     * of comparisons. At concurrency 1, where one repeat lasts about a second on this machine, the decode
     * metrics are reported in only part of the comparisons: the per-point detection counts are in the
     * message, and docs/gate.md records them as the gate's known limit here.
     */
    @Test
    void aFifteenPercentLongerTokenGapFailsTheGateOnDecodeMetricsAndNeverOnTimeToFirstToken() throws IOException {
        List<Path> slowed = runs("slow");
        assertThat(slowed).as("recorded slowed runs under %s", RECORDED).hasSizeGreaterThanOrEqualTo(2);
        Map<String, Integer> detections = new TreeMap<>();
        int comparisons = 0;
        for (List<Path> chosen : choices(runs("aa"), BASELINE_RUNS)) {
            for (Path current : slowed) {
                comparisons++;
                Set<String> regressed = new TreeSet<>();
                for (GateOutcome outcome : compare(chosen, current)) {
                    if (outcome.verdict() == GateVerdict.REGRESSION) {
                        regressed.add(outcome.metric().id() + " @ " + outcome.point());
                        detections.merge(outcome.metric().id() + " @ " + outcome.point(), 1, Integer::sum);
                    }
                }
                String comparison = names(chosen) + " → " + current.getFileName();
                assertThat(regressed).as("%s fails the gate", comparison).isNotEmpty();
                assertThat(regressed).as("%s: only decode metrics; the first token is not delayed", comparison)
                        .allMatch(name -> DECODE_METRICS.stream().anyMatch(name::startsWith));
            }
        }
        assertThat(detections.getOrDefault("median_itl_ms @ concurrency=16", 0) / (double) comparisons)
                .as("median_itl_ms @ concurrency=16 reported in %s comparisons; all detections: %s", comparisons, detections)
                .isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void theCommandLineGateExitsOneOnTheSlowdownAndZeroOnTheSameBuild() throws IOException {
        Path root = directory.resolve("cli-baselines");
        List<Path> aa = runs("aa");
        for (Path run : aa.subList(0, BASELINE_RUNS)) {
            assertThat(Main.commandLine().execute("baseline", "update", "--from", copy(run).toString(),
                    "--root", root.toString(), "--keep", Integer.toString(BASELINE_RUNS))).isZero();
        }
        StringWriter out = new StringWriter();
        picocli.CommandLine cli = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(new StringWriter()));

        Path slow = copy(runs("slow").get(0));
        assertThat(cli.execute("gate", "--run", slow.toString(), "--baselines", root.toString()))
                .isEqualTo(GateCommand.REGRESSION);
        String xml = Files.readString(slow.resolve("gate-junit.xml"));
        assertThat(xml).contains("name=\"median_itl_ms @ concurrency=16\"><failure")
                .contains("Yuen t-test (20 % trimmed means) p = ").contains("95 % CI").contains("(n=24)")
                .contains("reported, not gated: vLLM's definition of a gated metric");

        Path same = copy(aa.get(BASELINE_RUNS));
        assertThat(cli.execute("gate", "--run", same.toString(), "--baselines", root.toString())).as(out.toString())
                .isZero();
    }

    /** The gate over a baseline pooling {@code baselineRuns}, as GateCommand judges it. */
    private List<GateOutcome> compare(List<Path> baselineRuns, Path current) throws IOException {
        var now = BaselineFiles.readRun(current);
        var base = pooledBaseline(baselineRuns, directory.resolve("baselines-" + baselines++));
        assertThat(now.fingerprint()).isEqualTo(base.fingerprint());
        assertThat(now.allValid()).as("%s valid", current).isTrue();
        return RunGate.compare(base, now);
    }

    /** A baseline under {@code root} pooling {@code runs}, as {@code baseline update --keep N} builds it. */
    static RunSamples pooledBaseline(List<Path> runs, Path root) throws IOException {
        Path file = null;
        for (Path run : runs) {
            file = BaselineFiles.update(run, root, runs.size());
        }
        return BaselineFiles.readBaseline(file);
    }

    private Path copy(Path run) throws IOException {
        Path target = directory.resolve(run.getParent().getFileName() + "-" + run.getFileName());
        Files.createDirectories(target);
        for (String file : List.of("measurements.json", "environment.json")) {
            Files.copy(run.resolve(file), target.resolve(file));
        }
        return target;
    }

    static List<List<Path>> choices(List<Path> runs, int k) {
        List<List<Path>> all = new ArrayList<>();
        choose(runs, k, 0, new ArrayList<>(), all);
        return all;
    }

    private static void choose(List<Path> runs, int k, int from, List<Path> chosen, List<List<Path>> all) {
        if (chosen.size() == k) {
            all.add(List.copyOf(chosen));
            return;
        }
        for (int i = from; i < runs.size(); i++) {
            chosen.add(runs.get(i));
            choose(runs, k, i + 1, chosen, all);
            chosen.removeLast();
        }
    }

    private static String names(List<Path> runs) {
        return runs.stream().map(p -> p.getFileName().toString()).toList().toString();
    }

    static List<Path> runs(String kind) throws IOException {
        return runs(RECORDED, kind);
    }

    static List<Path> runs(Path recording, String kind) throws IOException {
        try (Stream<Path> listing = Files.list(recording.resolve(kind))) {
            return listing.filter(Files::isDirectory).sorted().toList();
        }
    }
}
