package dev.servebench.kernels.bench;

import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.results.JmhResult;
import dev.servebench.kernels.results.JmhResults;
import dev.servebench.kernels.results.KernelCompareRecording;
import dev.servebench.kernels.results.KernelCompareRecording.Fork;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.format.OutputFormatFactory;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Measures two kernel libraries, A (baseline) and B (candidate), in interleaved rounds: in each round, every
 * selected kernel point gets one JMH fork with A and one with B, back to back in a random order (seeded, from
 * {@link KernelOrder}), with the same warm-up and measurement iterations. The library is chosen per fork
 * JVM ({@code -Dservebench.kernels.lib}), as the kernel suite does, so each fork loads exactly one. After
 * every fork the whole recording is rewritten ({@link KernelCompareRecording}); JMH's own output goes to
 * {@code jmh.log} beside it.
 */
public final class KernelCompare {

    /** The smoke plan's iteration settings, one fork per run: what each side gets in each round by default. */
    public static final KernelCompareRecording.Timing SMOKE_TIMING = timing(KernelPlan.forMode(KernelMode.SMOKE, 1).timing());

    /**
     * @param a       A's library file (checked to exist)
     * @param b       B's library file
     * @param only    measures only the points whose benchmark class this finds
     * @param params  replaces a JMH parameter's values in every step that has it
     * @param threads the {@code threads} parameter
     * @param timing  JMH's warm-up and measurement iterations of every fork, both sides alike
     */
    public record Settings(Path a, Path b, int rounds, long seed, Optional<Pattern> only,
            Map<String, List<String>> params, int threads, KernelCompareRecording.Timing timing, Path output) {
        public Settings {
            Objects.requireNonNull(timing, "timing");
            a = existing("A", a);
            b = existing("B", b);
            if (rounds < 1) {
                throw new IllegalArgumentException("rounds " + rounds + "; expected at least 1");
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads " + threads + "; expected at least 1");
            }
            Objects.requireNonNull(only, "only");
            Objects.requireNonNull(output, "output");
            Map<String, List<String>> copy = new LinkedHashMap<>();
            params.forEach((name, values) -> copy.put(name, List.copyOf(values)));
            params = java.util.Collections.unmodifiableMap(copy);
        }
    }

    private static Path existing(String side, Path library) {
        Objects.requireNonNull(library, side + "'s library");
        Path absolute = library.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute)) {
            throw new IllegalArgumentException(side + "'s kernel library " + library + ": no such file (" + absolute
                    + ")");
        }
        return absolute;
    }

    /** Told after each fork; {@code fork.error()} is empty when it measured. */
    @FunctionalInterface
    public interface Progress {
        void forked(int forkNumber, int forks, Fork fork);
    }

    private KernelCompare() {
    }

    /** Runs every round and returns the recording, also written to {@code settings.output()}. */
    public static KernelCompareRecording run(Settings settings, Progress progress) throws IOException {
        List<KernelOrder.Point> points = KernelOrder.points(settings.threads(), settings.only(), settings.params());
        Files.createDirectories(settings.output());
        Map<String, KernelCompareRecording.Library> libraries = Map.of(
                KernelCompareRecording.A, library(settings.a()), KernelCompareRecording.B, library(settings.b()));
        String environment = Runtime.getRuntime().availableProcessors() + " CPUs, JDK " + Runtime.version();
        List<List<String>> order = new ArrayList<>();
        List<Fork> forks = new ArrayList<>();
        long started = System.nanoTime();
        Path log = settings.output().resolve("jmh.log");
        Path resultFile = settings.output().resolve("fork.json");
        int total = settings.rounds() * points.size() * 2;
        try (PrintStream jmhOutput = new PrintStream(Files.newOutputStream(log), true, java.nio.charset.StandardCharsets.UTF_8)) {
            for (int round = 1; round <= settings.rounds(); round++) {
                List<KernelOrder.Visit> visits = KernelOrder.round(points, settings.seed(), round);
                order.add(visits.stream().map(KernelOrder.Visit::toString).toList());
                for (KernelOrder.Visit visit : visits) {
                    Path library = visit.side().equals(KernelCompareRecording.A) ? settings.a() : settings.b();
                    Fork fork = fork(round, visit, library, settings.timing(), resultFile, jmhOutput);
                    forks.add(fork);
                    KernelCompareRecording recording = new KernelCompareRecording(KernelCompareRecording.FORMAT,
                            libraries, settings.rounds(), settings.seed(), settings.timing(), settings.threads(), environment,
                            order, forks, (System.nanoTime() - started) / 1e9);
                    recording.write(settings.output());
                    progress.forked(forks.size(), total, fork);
                }
            }
        } finally {
            Files.deleteIfExists(resultFile);
        }
        return KernelCompareRecording.read(settings.output());
    }

    /** One JMH fork of one side at one point; a failure is recorded with its reason, not thrown. */
    private static Fork fork(int round, KernelOrder.Visit visit, Path library, KernelCompareRecording.Timing timing,
            Path resultFile, PrintStream jmhOutput) {
        long started = System.nanoTime();
        KernelOrder.Point point = visit.point();
        String benchmark = point.benchmarkClass().substring(KernelPlan.BENCH.length());
        // JMH's output of every fork, so a failure recorded in one line can be read in full.
        jmhOutput.println("# kernel compare: round " + round + ", side " + visit.side() + ", " + library);
        try {
            Files.deleteIfExists(resultFile);
            new Runner(options(point, library, timing, resultFile).build(),
                    OutputFormatFactory.createFormatInstance(jmhOutput, VerboseMode.NORMAL)).run();
            List<JmhResult> results = JmhResults.read(resultFile);
            if (results.size() != 1 || results.getFirst().forkScores().size() != 1) {
                throw new IllegalStateException("expected one result of one fork, JMH wrote " + results.size());
            }
            JmhResult result = results.getFirst();
            return new Fork(round, visit.side(), result.className(), result.params(), result.unit(), result.score(),
                    result.forkScores().getFirst(), "", seconds(started));
        } catch (RunnerException | IOException | RuntimeException e) {
            String error = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return new Fork(round, visit.side(), benchmark, point.params(), "", null, List.of(),
                    error.lines().findFirst().orElse(error) + " (jmh.log has JMH's output)", seconds(started));
        }
    }

    private static ChainedOptionsBuilder options(KernelOrder.Point point, Path library,
            KernelCompareRecording.Timing timing, Path resultFile) {
        // One fork per side and round: the rounds are the repeats the paired statistics need.
        ChainedOptionsBuilder options = KernelBenchmarks.jmhOptions(point.benchmarkClass(),
                new KernelPlan.Timing(1, timing.warmupIterations(), timing.warmupSeconds(),
                        timing.measurementIterations(), timing.measurementSeconds()),
                resultFile, Optional.of(library));
        point.params().forEach(options::param);
        return options;
    }

    private static KernelCompareRecording.Library library(Path file) throws IOException {
        KernelLibrary loaded = KernelLibrary.load(file);
        return new KernelCompareRecording.Library(file.toString(), loaded.implementation(), sha256(file));
    }

    private static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    private static double seconds(long startedNanos) {
        return Math.round((System.nanoTime() - startedNanos) / 1e7) / 100.0;
    }

    private static KernelCompareRecording.Timing timing(KernelPlan.Timing plan) {
        return new KernelCompareRecording.Timing(plan.warmupIterations(), plan.warmupSeconds(),
                plan.measurementIterations(), plan.measurementSeconds());
    }
}
