package dev.servebench.perf;

import dev.servebench.metric.MetricId;
import dev.servebench.results.PointMeasurement;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.telemetry.MachineSpeedProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.function.Predicate;

/**
 * Measures a spec against two servers, A (baseline) and B (candidate), in interleaved rounds: each round
 * visits the spec's load points in a random order and measures A and B at each, in a random order, one right
 * after the other. Keeping a pair's two measurements adjacent is the point (duet benchmarking): whatever the
 * machine does in that minute it does to both. Randomising which side goes first keeps a steady trend
 * (warming, a neighbour's build ramping up) from always favouring one side. Only one side runs at a time.
 * Both sides use the same prompts and, in round r, the arrival seed of repeat r.
 */
public final class CompareRun {

    /** One side: a runner bound to its server, and a line describing that server. */
    public record Side(String name, SpecRunner runner, String target) {
        public Side {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(runner, "runner");
            Objects.requireNonNull(target, "target");
        }
    }

    /** Told after each measurement; {@code error} is empty when it succeeded. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (round, side, point, error) -> { };

        void measured(int round, String side, LoadPointKey point, String error);
    }

    private CompareRun() {
    }

    /**
     * Runs {@code rounds} rounds and writes {@code compare.json} into {@code directory} after every measurement.
     *
     * @param valid the spec's validity conditions for one measurement (the caller's, from the verdict layer)
     */
    public static CompareRecording run(PerformanceSpec spec, Side a, Side b, int rounds, long seed,
            Predicate<PointMeasurement> valid, Path directory, Progress progress)
            throws IOException, InterruptedException {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be >= 1");
        }
        Map<String, String> targets = new LinkedHashMap<>();
        targets.put(CompareRecording.A, a.target());
        targets.put(CompareRecording.B, b.target());
        List<List<String>> order = new ArrayList<>();
        List<CompareRecording.Measured> measured = new ArrayList<>();
        long started = System.nanoTime();
        for (int round = 1; round <= rounds; round++) {
            List<String> visits = roundOrder(spec.sweep().points(), seed, round);
            order.add(visits);
            for (String visit : visits) {
                String[] parts = visit.split(" ");
                LoadPointKey key = LoadPointKey.parse(parts[0]);
                Side side = parts[1].equals(CompareRecording.A) ? a : b;
                CompareRecording.Measured result = measureOne(side, parts[1], key, round, valid);
                measured.add(result);
                progress.measured(round, parts[1], key, result.error());
                new CompareRecording(CompareRecording.FORMAT, spec.name(), spec.source().sha256(), rounds, seed,
                        targets, order, measured, (System.nanoTime() - started) / 1e9).write(directory);
            }
        }
        return new CompareRecording(CompareRecording.FORMAT, spec.name(), spec.source().sha256(), rounds, seed,
                targets, order, measured, (System.nanoTime() - started) / 1e9);
    }

    /**
     * The visits of one round, e.g. {@code ["concurrency=16 B", "concurrency=16 A", "concurrency=1 A", …]}:
     * points shuffled, and at each point which side goes first by a coin, all from {@code seed} and the round.
     */
    static List<String> roundOrder(List<LoadPointKey> points, long seed, int round) {
        Random random = new Random(seed * 1_000_003L + round);
        List<LoadPointKey> shuffled = new ArrayList<>(points);
        Collections.shuffle(shuffled, random);
        List<String> visits = new ArrayList<>();
        for (LoadPointKey point : shuffled) {
            boolean aFirst = random.nextBoolean();
            visits.add(point + " " + (aFirst ? CompareRecording.A : CompareRecording.B));
            visits.add(point + " " + (aFirst ? CompareRecording.B : CompareRecording.A));
        }
        return visits;
    }

    private static CompareRecording.Measured measureOne(Side side, String name, LoadPointKey key, int round,
            Predicate<PointMeasurement> valid) throws InterruptedException {
        PointMeasurement measurement;
        try {
            measurement = side.runner().measureRound(key, round);
        } catch (IOException | RuntimeException e) {
            // One failed measurement leaves that round unpaired at this point; the comparison goes on and the
            // verdict says how many rounds paired.
            String error = dev.servebench.record.ErrorLine.of(e);
            return new CompareRecording.Measured(round, name, key.toString(), false, Map.of(), error);
        }
        PointMeasurement.Repeat repeat = measurement.repeats().getFirst();
        Map<String, Double> metrics = new LinkedHashMap<>();
        for (MetricId metric : MetricId.values()) {
            OptionalDouble value = repeat.summary().value(metric);
            if (value.isPresent() && Double.isFinite(value.getAsDouble())) {
                metrics.put(metric.id(), value.getAsDouble());
            }
        }
        metrics.put(MachineSpeedProbe.SAMPLE_KEY, repeat.machineProbeMs());
        return new CompareRecording.Measured(round, name, key.toString(), valid.test(measurement), metrics, "");
    }
}
