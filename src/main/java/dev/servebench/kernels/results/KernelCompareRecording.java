package dev.servebench.kernels.results;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.servebench.baseline.KernelPairedPoint;
import dev.servebench.metric.KernelBenchmark;
import dev.servebench.metric.KernelMetric;
import dev.servebench.results.AtomicFiles;
import dev.servebench.spec.KernelPoint;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code kernel-compare.json}: everything a kernel A/B comparison measured, raw, so that it can be judged again
 * ({@code --judge DIR}, the fixtures' tests): both libraries, the seed and the order each round ran its forks
 * in, the JMH iteration settings, and one entry per JMH fork (round × side × kernel point) with JMH's score and
 * every measurement iteration, or the error that stopped it. Rewritten atomically after each fork.
 *
 * @param libraries   "A" and "B": the library file each side's forks loaded
 * @param threads     the {@code threads} parameter of the kernels that take one
 * @param environment CPUs and JDK of the runner
 * @param order       per round, the forks in the order they ran, e.g. {@code ["MoeBenchmark:…,tokens=64 B", …]}
 * @param seconds     wall-clock time of the comparison so far
 */
public record KernelCompareRecording(String format, Map<String, Library> libraries, int rounds, long seed,
        Timing timing, int threads, String environment, List<List<String>> order, List<Fork> forks, double seconds) {

    public static final String FORMAT = "servebench-kernel-compare/1";
    public static final String FILE = "kernel-compare.json";
    public static final String A = "A";
    public static final String B = "B";
    private static final List<String> TIME_UNITS = List.of("ns/op", "us/op", "ms/op", "s/op");

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public KernelCompareRecording {
        if (!FORMAT.equals(format)) {
            throw new IllegalArgumentException("format '" + format + "': expected " + FORMAT);
        }
        libraries = Map.copyOf(Objects.requireNonNull(libraries, "libraries"));
        if (!libraries.keySet().equals(java.util.Set.of(A, B))) {
            throw new IllegalArgumentException("libraries " + libraries.keySet() + ": expected exactly A and B");
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be >= 1");
        }
        Objects.requireNonNull(timing, "timing");
        if (threads < 1) {
            throw new IllegalArgumentException("threads (" + threads + ") must be >= 1");
        }
        environment = environment == null ? "" : environment;
        order = order.stream().map(List::copyOf).toList();
        forks = List.copyOf(forks);
        for (Fork fork : forks) {
            if (fork.round() > rounds) {
                throw new IllegalArgumentException("fork of round " + fork.round() + " outside rounds 1.." + rounds);
            }
        }
        if (!(seconds >= 0)) {
            throw new IllegalArgumentException("seconds (" + seconds + ") must be >= 0");
        }
    }

    /**
     * A side's library.
     *
     * @param implementation what the library says it is ({@code sb_implementation}), e.g. a slowed build's label
     * @param sha256         of the file, so an A/A comparison shows it compared one build with itself
     */
    public record Library(String path, String implementation, String sha256) {
        public Library {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(implementation, "implementation");
            Objects.requireNonNull(sha256, "sha256");
        }
    }

    /** JMH's iteration settings, the same for every fork of both sides. */
    public record Timing(int warmupIterations, int warmupSeconds, int measurementIterations, int measurementSeconds) {
        public Timing {
            if (warmupIterations < 0 || warmupSeconds < 1 || measurementIterations < 1 || measurementSeconds < 1) {
                throw new IllegalArgumentException("timing " + warmupIterations + " × " + warmupSeconds + " s warm-up, "
                        + measurementIterations + " × " + measurementSeconds
                        + " s measurement: expected warm-up >= 0 iterations, >= 1 measurement iteration, >= 1 s each");
            }
        }
    }

    /**
     * One JMH fork: one side at one kernel point in one round.
     *
     * @param benchmark  the JMH class's simple name, e.g. {@code MoeBenchmark}
     * @param parameters every JMH parameter of the point
     * @param unit       JMH's score unit (a time per operation)
     * @param score      JMH's score: the mean of the iterations; null when the fork failed
     * @param iterations each measurement iteration's score; empty when the fork failed
     * @param error      why the fork measured nothing; empty when it did
     * @param seconds    wall-clock time of the fork, JVM start included
     */
    public record Fork(int round, String side, String benchmark, Map<String, String> parameters, String unit,
            Double score, List<Double> iterations, String error, double seconds) {
        public Fork {
            if (round < 1) {
                throw new IllegalArgumentException("fork round " + round + ": rounds count from 1");
            }
            if (!A.equals(side) && !B.equals(side)) {
                throw new IllegalArgumentException("fork side '" + side + "': expected A or B");
            }
            Objects.requireNonNull(benchmark, "benchmark");
            parameters = Collections.unmodifiableMap(new TreeMap<>(parameters));
            iterations = List.copyOf(iterations);
            error = error == null ? "" : error;
            unit = unit == null ? "" : unit;
            String where = benchmark + " " + parameters + " round " + round + " " + side;
            if (error.isEmpty()) {
                if (iterations.isEmpty() || score == null) {
                    throw new IllegalArgumentException(where + ": no score or no measurement iterations, and no error");
                }
                if (!TIME_UNITS.contains(unit)) {
                    throw new IllegalArgumentException(where + ": score unit '" + unit + "'; expected one of "
                            + TIME_UNITS + " (JMH's average time per operation)");
                }
                if (iterations.stream().anyMatch(v -> !(v > 0 && v < Double.POSITIVE_INFINITY))) {
                    throw new IllegalArgumentException(where + ": iterations " + iterations
                            + "; expected finite times > 0");
                }
            }
            point(benchmark, parameters); // the benchmark and parameters must name a kernel point
        }

        public boolean measured() {
            return error.isEmpty();
        }

        /** The fork as the JMH result the figure formulas read. */
        JmhResult result() {
            return new JmhResult(benchmark, parameters, unit, score, Double.NaN, List.of(iterations));
        }
    }

    /** {@code Nvfp4DequantBenchmark:backend=native,…}: a point in {@link #order()} and in progress lines. */
    public static String pointName(String benchmark, Map<String, String> parameters) {
        KernelPoint point = point(benchmark, parameters);
        return point.benchmark().className() + ":" + point;
    }

    private static KernelPoint point(String benchmark, Map<String, String> parameters) {
        String className = benchmark.contains(".") ? benchmark.substring(0, benchmark.indexOf('.')) : benchmark;
        KernelBenchmark kernel = KernelBenchmark.byClassName(className).orElseThrow(() -> new IllegalArgumentException(
                "benchmark " + benchmark + ": not a kernel benchmark; expected one of "
                        + java.util.Arrays.stream(KernelBenchmark.values()).map(KernelBenchmark::className).toList()));
        return new KernelPoint(kernel, parameters);
    }

    public void write(Path directory) throws IOException {
        AtomicFiles.write(directory.resolve(FILE), JSON.writeValueAsString(this));
    }

    /** Reads {@code DIR/kernel-compare.json} (or the file itself); a malformed file says what is wrong and where. */
    public static KernelCompareRecording read(Path path) throws IOException {
        Path file = path.getFileName() != null && path.getFileName().toString().endsWith(".json") ? path
                : path.resolve(FILE);
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new java.nio.file.NoSuchFileException(file.toString());
        }
        try {
            return JSON.readValue(file.toFile(), KernelCompareRecording.class);
        } catch (com.fasterxml.jackson.databind.exc.ValueInstantiationException e) {
            throw new IllegalArgumentException(file + ": " + e.getCause().getMessage(), e);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IllegalArgumentException(file + ": not a kernel compare recording: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Each kernel point's gated figure ({@link KernelMetric#gated()}) per round and side, in the order the points
     * were first measured: the figure of the fork's median iteration time, NaN where the fork measured nothing.
     */
    public List<KernelPairedPoint> pairedPoints() {
        Map<String, List<Fork>> byPoint = new LinkedHashMap<>();
        forks.forEach(fork -> byPoint.computeIfAbsent(pointName(fork.benchmark(), fork.parameters()),
                name -> new ArrayList<>()).add(fork));
        List<KernelPairedPoint> paired = new ArrayList<>();
        for (List<Fork> pointForks : byPoint.values()) {
            Fork first = pointForks.getFirst();
            KernelPoint point = point(first.benchmark(), first.parameters());
            KernelMetric metric = KernelMetric.gatedFigureOf(point.benchmark());
            paired.add(new KernelPairedPoint(metric, point, side(pointForks, A, metric), side(pointForks, B, metric)));
        }
        return paired;
    }

    private List<Double> side(List<Fork> pointForks, String side, KernelMetric metric) {
        List<Double> values = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            int r = round;
            values.add(pointForks.stream().filter(f -> f.round() == r && f.side().equals(side) && f.measured())
                    .findFirst().map(f -> KernelFormulas.value(metric, f.result(), f.result().medianSeconds()))
                    .orElse(Double.NaN));
        }
        return values;
    }

    /** Rounds in which every point's fork measured on both sides. */
    public long completeRounds() {
        long points = forks.stream().map(f -> pointName(f.benchmark(), f.parameters())).distinct().count();
        long complete = 0;
        for (int round = 1; round <= rounds; round++) {
            int r = round;
            complete += forks.stream().filter(f -> f.round() == r && f.measured()).count() == 2 * points ? 1 : 0;
        }
        return complete;
    }
}
