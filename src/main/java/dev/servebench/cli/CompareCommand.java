package dev.servebench.cli;

import dev.servebench.baseline.DisturbedRounds;
import dev.servebench.baseline.GateOutcome;
import dev.servebench.baseline.PairedComparison;
import dev.servebench.baseline.PairedGate;
import dev.servebench.baseline.Tolerance;
import dev.servebench.perf.AlternatingRounds;
import dev.servebench.perf.CompareRecording;
import dev.servebench.perf.CompareRun;
import dev.servebench.perf.FreshInstanceRounds;
import dev.servebench.perf.InstanceBlocks;
import dev.servebench.perf.SpecRunner;
import dev.servebench.server.ServerUnderTest;
import dev.servebench.results.PointMeasurement;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.SpecException;
import dev.servebench.spec.SpecReader;
import dev.servebench.spec.TargetSpec;
import dev.servebench.spec.UrlTargetSpec;
import dev.servebench.verdict.PointValidity;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servebench compare SPEC}: the spec's workload and load points measured against A (baseline) and B
 * (candidate) in interleaved rounds ({@link CompareRun}), judged per metric × load point on the paired rounds
 * ({@link PairedGate}); {@code --judge DIR} judges a recorded comparison again. Both servers are started
 * once and stay up; {@code --pairing} says whether they are measured one at a time or together (docs/gate.md,
 * "A/B comparison").
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "A/B comparison: measure SPEC against targets A and B in interleaved rounds and judge the"
                + " paired differences; JUnit XML + Markdown; exit 0 no regression, 1 regression, 2 bad input,"
                + " 5 a gated comparison could not be judged.")
public final class CompareCommand implements Callable<Integer> {

    static final int REGRESSION = PairedVerdictReport.REGRESSION;
    static final int BAD_INPUT = PairedVerdictReport.BAD_INPUT;
    static final int NOT_JUDGED = PairedVerdictReport.NOT_JUDGED;

    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "SPEC", description = "The spec whose workload and load points are measured.")
    Path specFile;

    // 24, not 12: on the noisy 2-core VM 12 rounds found a 15 % throughput loss at concurrency 16 in 37 of 40
    // comparisons, 24 in 40 of 40 (docs/gate.md, "How many rounds").
    @Option(names = "--rounds", defaultValue = "24", description = "Rounds (default ${DEFAULT-VALUE}: enough to find a 15 % change in at least 95 % of comparisons on a noisy 2-core runner; the paired test trims 20 % at each end); the spec's repeats are not used.")
    int rounds;

    @Option(names = "--extra-rounds", paramLabel = "N",
            description = "At most N rounds measured after --rounds, one at a time while at some load point fewer"
                    + " than --rounds rounds had machine probes that agreed: they replace disturbed rounds (default:"
                    + " a quarter of --rounds, rounded up; 0: none; none with --pairing alternating). Decided from the"
                    + " probes only (docs/gate.md, \"Disturbed rounds\").")
    Integer extraRounds;

    @Option(names = "--instances", paramLabel = "K",
            description = "Server instances per side: fresh A and B servers for each of K blocks of consecutive rounds,"
                    + " so that the rounds sample the few per cent by which two instances of one build can differ for"
                    + " as long as they run (default where servebench starts both sides: " + InstanceBlocks.DEFAULT
                    + ", at most one per " + InstanceBlocks.MIN_ROUNDS_PER_BLOCK + " rounds; 1, each side started"
                    + " once, for servers at URLs and with --pairing alternating; docs/gate.md, \"Server instances\").")
    Integer instances;

    @Option(names = "--seed", defaultValue = "1", description = "Seeds the order of each round (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--pairing", defaultValue = "sequential", paramLabel = "HOW",
            converter = PairingConverter.class,
            description = "sequential (default): A and B back to back, one at a time; simultaneous: both at once"
                    + " after both warmed up (duet), so a disturbance hits both alike, while sharing the client"
                    + " machine; alternating: one server up at a time, each side started for its turn in a round"
                    + " and stopped after it, for two servers that do not fit together (docs/gate.md, \"Pairing\").")
    CompareRun.Pairing pairing;

    /** Picocli's enum conversion wants the constant's name; users type the lower-case id. */
    static final class PairingConverter implements picocli.CommandLine.ITypeConverter<CompareRun.Pairing> {
        @Override
        public CompareRun.Pairing convert(String value) {
            return CompareRun.Pairing.of(value);
        }
    }

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: reports/compare/<spec>-<time>).")
    Path out;

    @Option(names = "--a-url", paramLabel = "URL", description = "A is the server at URL (default: the spec's target).")
    URI aUrl;

    @Option(names = "--b-url", paramLabel = "URL", description = "B is the server at URL (default: the spec's target).")
    URI bUrl;

    @Option(names = "--a-target", paramLabel = "SPEC", description = "A is this spec's target (process, container, ...).")
    Path aTarget;

    @Option(names = "--b-target", paramLabel = "SPEC", description = "B is this spec's target.")
    Path bTarget;

    @Option(names = "--a-token-delay", defaultValue = "0", paramLabel = "DELAY",
            description = "Injected slowdown of an embedded A (15%% stretches every inter-token gap by 15 %%; 2ms).")
    String aTokenDelay;

    @Option(names = "--b-token-delay", defaultValue = "0", paramLabel = "DELAY",
            description = "Injected slowdown of an embedded B, e.g. 15%%.")
    String bTokenDelay;

    @Option(names = "--judge", paramLabel = "DIR", description = "Judge the recorded comparison in DIR again; measures nothing.")
    Path judge;

    @Option(names = "--unpaired-baseline", paramLabel = "BASE",
            description = "With --judge DIR: judge DIR's B side against the A side of the recording in BASE unpaired, as"
                    + " `servebench gate` judges a run against a baseline (its statistics, tolerances and drift check;"
                    + " exit codes of the gate): what pairing gains, measured on the same rounds.")
    Path unpairedBaseline;

    @Option(names = "--junit", paramLabel = "FILE", description = "JUnit XML (default: DIR/compare-junit.xml; DIR/unpaired-junit.xml with --unpaired-baseline).")
    Path junit;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Markdown summary (default: DIR/compare.md; DIR/unpaired.md with --unpaired-baseline).")
    Path markdown;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (judge != null) {
                if (specFile != null) {
                    return fail("--judge DIR judges a recording; it takes no SPEC");
                }
                if (unpairedBaseline != null) {
                    return UnpairedJudgement.judge(judge, CompareRecording.read(judge), unpairedBaseline,
                            CompareRecording.read(unpairedBaseline), junit, markdown, spec.commandLine().getOut(), err);
                }
                return verdict(judge, CompareRecording.read(judge));
            }
            if (unpairedBaseline != null) {
                return fail("--unpaired-baseline BASE judges a recording: give --judge DIR with it");
            }
            if (specFile == null) {
                return fail("a SPEC to measure, or --judge DIR, is required");
            }
            if (rounds < 1) {
                return fail("--rounds " + rounds + ": must be >= 1");
            }
            if (extraRounds != null && extraRounds < 0) {
                return fail("--extra-rounds " + extraRounds + ": must be >= 0");
            }
            if (extraRounds != null && extraRounds > 0 && pairing == CompareRun.Pairing.ALTERNATING) {
                return fail("--extra-rounds " + extraRounds + ": --pairing alternating adds no rounds (each costs"
                        + " two server starts); give --rounds the rounds it needs");
            }
            if (instances != null && (instances < 1 || instances > rounds)) {
                return fail("--instances " + instances + ": must be in 1..--rounds (" + rounds + "), one block of"
                        + " rounds per instance");
            }
            if (instances != null && instances > 1 && pairing == CompareRun.Pairing.ALTERNATING) {
                return fail("--instances " + instances + ": --pairing alternating already starts each side afresh"
                        + " for every turn");
            }
            PerformanceSpec measured = SpecReader.read(specFile);
            TargetSpec a = target("A", measured, aUrl, aTarget);
            TargetSpec b = target("B", measured, bUrl, bTarget);
            int instancesPerSide = instances != null ? instances : defaultInstances(pairing, a, b, rounds);
            String startsEachSide = "";   // what needs servers servebench starts, if anything does
            if (pairing == CompareRun.Pairing.ALTERNATING) {
                startsEachSide = "--pairing alternating starts and stops each side";
            } else if (instancesPerSide > 1) {
                startsEachSide = "--instances " + instances + " starts fresh servers for each block of rounds";
            }
            for (TargetSpec side : List.of(a, b)) {
                if (!startsEachSide.isEmpty() && side instanceof UrlTargetSpec url) {
                    return fail(startsEachSide + ", but " + (side == a ? "A" : "B") + " is the server at " + url.url()
                            + ", which servebench does not start; give --a-target/--b-target SPEC with a process,"
                            + " container or embedded target");
                }
            }
            Path directory = out != null ? out : Path.of("reports", "compare", measured.name() + "-"
                    + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            Files.createDirectories(directory);
            Files.copy(specFile, directory.resolve("spec.yaml"), StandardCopyOption.REPLACE_EXISTING);
            CompareRecording recording = measure(measured, a, b, instancesPerSide, directory, err);
            return verdict(directory, recording);
        } catch (SpecException e) {
            return fail(e.getMessage());
        } catch (NoSuchFileException e) {
            return fail(e.getFile() + ": not found");
        }
    }

    private CompareRecording measure(PerformanceSpec measured, TargetSpec a, TargetSpec b, int instancesPerSide,
            Path directory, PrintWriter err) throws IOException, InterruptedException {
        Optional<String> apiKey = Optional.ofNullable(System.getenv("OPENAI_API_KEY")).filter(k -> !k.isBlank());
        Predicate<PointMeasurement> valid = m -> PointValidity.valid(PointValidity.check(m, measured.validity(),
                SpecRunner.clientThreads(measured)));
        CompareRun.Progress progress = new CompareRun.Progress() {
            @Override
            public void measured(int round, String side, LoadPointKey point, String error) {
                err.println("servebench compare: round " + ofRounds(round) + " " + side + " @ " + point
                        + (error.isEmpty() ? "" : ": FAILED: " + error));
                err.flush();
            }

            @Override
            public void stopFailed(int round, String side, String error) {
                err.println("servebench compare: round " + ofRounds(round) + " " + side
                        + ": the server did not stop cleanly: " + error);
                err.flush();
            }

            @Override
            public void extraRound(int round) {
                err.println("servebench compare: round " + round + " added: at some load point fewer than " + rounds
                        + " rounds had machine probes that agreed (at most " + maxExtraRounds() + " added)");
                err.flush();
            }
        };
        if (pairing == CompareRun.Pairing.ALTERNATING) {
            err.println("servebench compare: " + rounds + " rounds × 2 turns (one server up at a time) × "
                    + measured.sweep().points().size() + " load point(s), alternating; raw measurements in "
                    + directory.resolve(CompareRecording.FILE));
            err.flush();
            String started = "started for each turn";
            return AlternatingRounds.run(measured,
                    CompareServers.launcher(a, "A", aTokenDelay, measured, directory, apiKey, err, started),
                    CompareServers.launcher(b, "B", bTokenDelay, measured, directory, apiKey, err, started),
                    rounds, seed, valid, directory, progress);
        }
        CompareRun.ExtraRounds extra = new CompareRun.ExtraRounds(maxExtraRounds(),
                soFar -> DisturbedRounds.replacementWanted(soFar.pairedPoints(), rounds));
        if (instancesPerSide > 1) {
            InstanceBlocks blocks = new InstanceBlocks(rounds, instancesPerSide);
            err.println("servebench compare: " + rounds + " rounds × " + measured.sweep().points().size()
                    + " load point(s) × 2 sides, " + pairing.id() + ", fresh servers for " + blocks.describe()
                    + "; raw measurements in " + directory.resolve(CompareRecording.FILE));
            err.flush();
            String started = "started fresh for each of " + instancesPerSide + " blocks of rounds";
            return FreshInstanceRounds.run(measured,
                    CompareServers.launcher(a, "A", aTokenDelay, measured, directory, apiKey, err, started),
                    CompareServers.launcher(b, "B", bTokenDelay, measured, directory, apiKey, err, started),
                    blocks, extra, seed, pairing, valid, directory, progress);
        }
        try (ServerUnderTest serverA = CompareServers.start(a, "A", aTokenDelay, measured,
                     directory.resolve("server-A"), apiKey);
             ServerUnderTest serverB = CompareServers.start(b, "B", bTokenDelay, measured,
                     directory.resolve("server-B"), apiKey);
             SpecRunner runnerA = CompareServers.runner(measured, serverA, apiKey, directory.resolve("A"));
             SpecRunner runnerB = CompareServers.runner(measured, serverB, apiKey, directory.resolve("B"))) {
            err.println("servebench compare: A = " + serverA.describe());
            err.println("servebench compare: B = " + serverB.describe());
            err.println("servebench compare: " + rounds + " rounds × " + measured.sweep().points().size()
                    + " load point(s) × 2 sides, " + pairing.id() + "; raw measurements in " + directory.resolve(CompareRecording.FILE));
            err.flush();
            return CompareRun.run(measured, new CompareRun.Side("A", runnerA, serverA.describe()),
                    new CompareRun.Side("B", runnerB, serverB.describe()), rounds, extra, seed, pairing, valid,
                    directory, progress);
        }
    }

    /**
     * Fresh instances per block of rounds wherever servebench starts both sides: one start per side lets the
     * instances' own difference, which lasts as long as they run, read as a change of the build. Servers at URLs
     * cannot be restarted, and alternating pairing restarts each side for every turn already.
     */
    static int defaultInstances(CompareRun.Pairing pairing, TargetSpec a, TargetSpec b, int rounds) {
        boolean bothStartedHere = !(a instanceof UrlTargetSpec) && !(b instanceof UrlTargetSpec);
        return bothStartedHere && pairing != CompareRun.Pairing.ALTERNATING ? InstanceBlocks.byDefault(rounds) : 1;
    }

    /** --extra-rounds, or a quarter of --rounds: enough to replace every round that may be set aside. */
    private int maxExtraRounds() {
        if (pairing == CompareRun.Pairing.ALTERNATING) {
            return 0;
        }
        return extraRounds != null ? extraRounds : (rounds + 3) / 4;
    }

    private String ofRounds(int round) {
        return round <= rounds ? round + "/" + rounds : round + " (added)";
    }

    private static TargetSpec target(String side, PerformanceSpec measured, URI url, Path targetSpec)
            throws IOException {
        if (url != null && targetSpec != null) {
            throw new IllegalArgumentException("--" + side.toLowerCase(java.util.Locale.ROOT) + "-url and --"
                    + side.toLowerCase(java.util.Locale.ROOT) + "-target both name " + side + "'s target; give one");
        }
        if (url != null) {
            return new UrlTargetSpec(url, measured.target().backend(), measured.target().model());
        }
        return targetSpec != null ? SpecReader.read(targetSpec).target() : measured.target();
    }

    /** Judges the recording, writes JUnit XML and Markdown beside it, prints the Markdown, returns the exit code. */
    private int verdict(Path directory, CompareRecording recording) throws IOException {
        List<GateOutcome> outcomes = PairedGate.judge(recording.pairedPoints(), Tolerance.pairedDefaults());
        String added = (recording.addedRounds().isEmpty() ? "" : ", " + recording.addedRounds())
                + (recording.instancesNote().isEmpty() ? "" : "; " + recording.instancesNote());
        String note = "paired, " + recording.rounds() + " rounds (" + recording.completeRounds()
                + " complete" + added + "): " + recording.pairing().description() + " (order seed "
                + recording.seed() + "); A = " + recording.targets().get("A") + "; B = " + recording.targets().get("B");
        String title = "servebench compare: " + recording.spec() + ", B vs A (paired, " + recording.rounds() + " rounds"
                + (recording.instancesNote().isEmpty() ? "" : ", " + recording.instances() + " server instances per side")
                + ")";
        return PairedVerdictReport.write(spec, outcomes, new PairedVerdictReport.Wording(title, note,
                        "compare." + recording.spec(), "nothing was measured",
                        "gated metric × load point comparison(s) could not be judged: fewer than "
                                + PairedComparison.MIN_ROUNDS + " rounds in which both sides measured them, or no"
                                + " change shown where more rounds were disturbed than may be set aside"),
                junit != null ? junit : directory.resolve("compare-junit.xml"),
                markdown != null ? markdown : directory.resolve("compare.md"));
    }

    private int fail(String message) {
        spec.commandLine().getErr().println("servebench: " + message);
        spec.commandLine().getErr().flush();
        return BAD_INPUT;
    }
}
