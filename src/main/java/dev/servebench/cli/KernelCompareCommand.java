package dev.servebench.cli;

import dev.servebench.baseline.KernelOutcome;
import dev.servebench.baseline.KernelPairedGate;
import dev.servebench.baseline.PairedComparison;
import dev.servebench.baseline.Tolerance;
import dev.servebench.kernels.bench.KernelCompare;
import dev.servebench.kernels.results.KernelCompareRecording;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * The kernel A/B comparison: two kernel libraries measured in interleaved rounds of JMH forks ({@link
 * KernelCompare}), each kernel point's figure judged on the paired rounds ({@link KernelPairedGate}, the
 * serving comparison's statistics); {@code --judge DIR} judges a recording again. Outputs and exit codes as
 * {@code servebench compare} (docs/gate.md, "Kernel A/B").
 * Runs from the jar as {@code servebench kernels compare}.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Kernel A/B: measure kernel libraries A and B in interleaved rounds of JMH forks and judge the"
                + " paired differences; JUnit XML + Markdown; exit 0 no regression, 1 regression, 2 bad input,"
                + " 5 a kernel point could not be judged.")
public final class KernelCompareCommand implements Callable<Integer> {

    static final int REGRESSION = PairedVerdictReport.REGRESSION;
    static final int BAD_INPUT = PairedVerdictReport.BAD_INPUT;
    static final int NOT_JUDGED = PairedVerdictReport.NOT_JUDGED;

    @Spec
    CommandSpec spec;

    @Option(names = "--a-lib", paramLabel = "PATH", description = "A's kernel library (the baseline, e.g. main's build).")
    Path aLibrary;

    @Option(names = "--b-lib", paramLabel = "PATH", description = "B's kernel library (the candidate).")
    Path bLibrary;

    @Option(names = "--rounds", defaultValue = "8", description = "Rounds (default ${DEFAULT-VALUE}): one fork per side per kernel point each.")
    int rounds;

    @Option(names = "--seed", defaultValue = "1", description = "Seeds the order of each round (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--only", paramLabel = "REGEX", description = "Only the benchmark classes this finds, e.g. 'Nvfp4|Moe'.")
    Pattern only;

    @Option(names = "--param", paramLabel = "NAME=V1,V2", description = "Replaces a JMH parameter's values wherever a benchmark has it.")
    List<String> params = List.of();

    @Option(names = "--threads", description = "The kernels' threads parameter (default: this machine's CPUs).")
    Integer threads;

    @Option(names = "--iterations", paramLabel = "N",
            description = "Measurement iterations of 1 s per fork, both sides alike (default: the smoke plan's 3).")
    Integer iterations;

    @Option(names = "--tolerance", defaultValue = "5%", paramLabel = "PERCENT",
            description = "Tolerated change of a kernel figure (default ${DEFAULT-VALUE}).")
    String tolerance;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: reports/kernel-compare/<time>).")
    Path out;

    @Option(names = "--judge", paramLabel = "DIR", description = "Judge the recorded comparison in DIR again; measures nothing.")
    Path judge;

    @Option(names = "--junit", paramLabel = "FILE", description = "JUnit XML (default: DIR/kernel-compare-junit.xml).")
    Path junit;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Markdown summary (default: DIR/kernel-compare.md).")
    Path markdown;

    @Override
    public Integer call() throws IOException {
        try {
            double allowed = percent(tolerance);
            if (judge != null) {
                if (aLibrary != null || bLibrary != null) {
                    return fail("--judge DIR judges a recording; it takes no --a-lib or --b-lib");
                }
                return verdict(judge, KernelCompareRecording.read(judge), allowed);
            }
            if (aLibrary == null || bLibrary == null) {
                return fail("--a-lib PATH and --b-lib PATH (or --judge DIR) are required");
            }
            Path directory = out != null ? out : Path.of("reports", "kernel-compare",
                    LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
            KernelCompare.Settings settings = new KernelCompare.Settings(aLibrary, bLibrary, rounds, seed,
                    Optional.ofNullable(only), parameters(params),
                    threads != null ? threads : Runtime.getRuntime().availableProcessors(), timing(), directory);
            PrintWriter err = spec.commandLine().getErr();
            err.println("servebench kernels compare: A = " + settings.a() + ", B = " + settings.b() + ", " + rounds
                    + " rounds; raw forks in " + directory.resolve(KernelCompareRecording.FILE));
            err.flush();
            KernelCompareRecording recording = KernelCompare.run(settings, (number, total, fork) -> {
                err.printf(Locale.ROOT, "servebench kernels compare: fork %d/%d: round %d %s %s: %s (%.1f s)%n", number,
                        total, fork.round(), fork.side(), KernelCompareRecording.pointName(fork.benchmark(),
                                fork.parameters()), fork.measured() ? String.format(Locale.ROOT, "%.4g %s", fork.score(),
                                fork.unit()) : "FAILED: " + fork.error(), fork.seconds());
                err.flush();
            });
            return verdict(directory, recording, allowed);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return fail(e.getMessage());
        } catch (NoSuchFileException e) {
            return fail(e.getFile() + ": not found");
        }
    }

    /** Judges the recording, writes JUnit XML and Markdown beside it, prints the Markdown, returns the exit code. */
    private int verdict(Path directory, KernelCompareRecording recording, double allowed) throws IOException {
        List<KernelOutcome> outcomes = KernelPairedGate.judge(recording.pairedPoints(), allowed, Tolerance.DEFAULT_ALPHA);
        KernelCompareRecording.Library a = recording.libraries().get(KernelCompareRecording.A);
        KernelCompareRecording.Library b = recording.libraries().get(KernelCompareRecording.B);
        KernelCompareRecording.Timing timing = recording.timing();
        String note = String.format(Locale.ROOT, "paired, %d rounds (%d complete): in each round one JMH fork per side"
                + " and kernel point, back to back in a random order (order seed %d); %d × %d s warm-up, %d × %d s"
                + " measurement per fork; threads=%d; %.0f s; A = %s (%s, sha256 %s); B = %s (%s, sha256 %s)%s",
                recording.rounds(), recording.completeRounds(), recording.seed(), timing.warmupIterations(),
                timing.warmupSeconds(), timing.measurementIterations(), timing.measurementSeconds(),
                recording.threads(), recording.seconds(), a.path(), a.implementation(), a.sha256().substring(0, 12),
                b.path(), b.implementation(), b.sha256().substring(0, 12),
                a.sha256().equals(b.sha256()) ? " — the same file on both sides (A/A)" : "");
        String title = "servebench kernels compare: B vs A (paired, " + recording.rounds() + " rounds)";
        return PairedVerdictReport.write(spec, outcomes, new PairedVerdictReport.Wording(title, note, "kernel-compare",
                        "no kernel point was measured", "kernel point(s) had fewer than " + PairedComparison.MIN_ROUNDS
                                + " rounds in which both sides' forks measured them"),
                junit != null ? junit : directory.resolve("kernel-compare-junit.xml"),
                markdown != null ? markdown : directory.resolve("kernel-compare.md"));
    }

    private KernelCompareRecording.Timing timing() {
        KernelCompareRecording.Timing smoke = KernelCompare.SMOKE_TIMING;
        return iterations == null ? smoke : new KernelCompareRecording.Timing(smoke.warmupIterations(),
                smoke.warmupSeconds(), iterations, smoke.measurementSeconds());
    }

    /** {@code NAME=V1,V2} options as a parameter map; a malformed one is bad input. */
    static Map<String, List<String>> parameters(List<String> written) {
        Map<String, List<String>> parameters = new LinkedHashMap<>();
        for (String option : written) {
            String[] parts = option.split("=", 2);
            if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                throw new IllegalArgumentException("--param " + option + "; expected NAME=V1,V2");
            }
            parameters.put(parts[0], List.of(parts[1].split(",")));
        }
        return parameters;
    }

    /** {@code 5%} or {@code 0.05}. */
    static double percent(String written) {
        String text = written.trim();
        try {
            double value = text.endsWith("%") ? Double.parseDouble(text.substring(0, text.length() - 1).trim()) / 100
                    : Double.parseDouble(text);
            if (!(value >= 0 && value < 1)) {
                throw new IllegalArgumentException("--tolerance " + written + "; expected a percentage from 0 % below 100 %");
            }
            return value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--tolerance " + written + "; expected a percentage such as 5% or 0.05");
        }
    }

    private int fail(String message) {
        spec.commandLine().getErr().println("servebench: " + message);
        spec.commandLine().getErr().flush();
        return BAD_INPUT;
    }
}
