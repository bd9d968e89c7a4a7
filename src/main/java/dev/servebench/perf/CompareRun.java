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
import java.util.concurrent.CountDownLatch;
import java.util.function.Predicate;

/**
 * Measures a spec against two servers, A (baseline) and B (candidate), in interleaved rounds: each round
 * visits the spec's load points in a random order and measures A and B at each, either one right after the
 * other in a random order ({@link Pairing#SEQUENTIAL}) or both at once ({@link Pairing#SIMULTANEOUS}, duet
 * benchmarking). Keeping a pair's two measurements together is the point: whatever the machine does in that
 * minute it does to both. Randomising which side goes first keeps a steady trend (warming, a neighbour's
 * build ramping up) from always favouring one side. Both sides use the same prompts and, in round r, the
 * arrival seed of repeat r.
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

        /** Round {@code round} is added after the planned ones ({@link ExtraRounds}). */
        default void extraRound(int round) {
        }

        /** An alternating side's server did not stop cleanly after its turn ({@link AlternatingRounds}). */
        default void stopFailed(int round, String side, String error) {
        }
    }

    /**
     * Rounds measured after the planned ones, one at a time while {@code wanted} says so and at most {@code max}:
     * rounds that replace disturbed ones. {@code wanted} sees the recording so far; it must decide from what the
     * machine did (the speed probes), never from the measured difference between A and B, or adding rounds until
     * a difference shows would find one where there is none.
     */
    public record ExtraRounds(int max, Predicate<CompareRecording> wanted) {
        public static final ExtraRounds NONE = new ExtraRounds(0, recording -> false);

        public ExtraRounds {
            Objects.requireNonNull(wanted, "wanted");
            if (max < 0) {
                throw new IllegalArgumentException("extra rounds (" + max + ") must be >= 0");
            }
        }
    }

    /** How the two measurements of a pair share the machine's time. */
    public enum Pairing {
        /**
         * One side at a time, back to back: each side has the client machine to itself, but a disturbance
         * shorter than a measurement hits one side of the pair only.
         */
        SEQUENTIAL("sequential", "A and B measured back to back at each load point, in a random order"),
        /**
         * Both sides at once, each with its own client, started together after both warmed up (Bulej et al.,
         * "Duet benchmarking", ICPE 2020): a disturbance hits both alike, at the price of the two loads sharing
         * the client machine (and the servers' machine when they share one), which the ratio then includes.
         */
        SIMULTANEOUS("simultaneous", "A and B measured at the same time at each load point (duet), both warmed"
                + " up first"),
        /**
         * One server up at a time, for two that do not fit on the machine together (one GPU node, both models
         * needing all of its memory): in each round one side is started, measures every load point and is
         * stopped, then the other, in a random order. A pair is then minutes apart and every round pays two
         * server starts; what the machine does between the turns is not cancelled.
         */
        ALTERNATING("alternating", "A and B started in turn, one server up at a time: in each round one side"
                + " measures every load point, then the other, each side started before its turn and stopped after it");

        private final String id;
        private final String description;

        Pairing(String id, String description) {
            this.id = id;
            this.description = description;
        }

        @com.fasterxml.jackson.annotation.JsonValue
        public String id() {
            return id;
        }

        public String description() {
            return description;
        }

        @com.fasterxml.jackson.annotation.JsonCreator
        public static Pairing of(String id) {
            for (Pairing pairing : values()) {
                if (pairing.id.equals(id)) {
                    return pairing;
                }
            }
            throw new IllegalArgumentException("pairing '" + id + "': expected sequential, simultaneous or alternating");
        }
    }

    private CompareRun() {
    }

    /**
     * Runs {@code rounds} rounds and writes {@code compare.json} into {@code directory} after every measurement.
     *
     * @param valid the spec's validity conditions for one measurement (the caller's, from the verdict layer)
     */
    public static CompareRecording run(PerformanceSpec spec, Side a, Side b, int rounds, long seed,
            Pairing pairing, Predicate<PointMeasurement> valid, Path directory, Progress progress)
            throws IOException, InterruptedException {
        return run(spec, a, b, rounds, ExtraRounds.NONE, seed, pairing, valid, directory, progress);
    }

    /**
     * Runs {@code rounds} rounds, then the {@code extra} ones, and writes {@code compare.json} into
     * {@code directory} after every measurement; an extra round is numbered on from the planned ones and, like
     * them, uses its own order and arrival seed.
     */
    public static CompareRecording run(PerformanceSpec spec, Side a, Side b, int rounds, ExtraRounds extra,
            long seed, Pairing pairing, Predicate<PointMeasurement> valid, Path directory, Progress progress)
            throws IOException, InterruptedException {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be >= 1");
        }
        if (pairing == Pairing.ALTERNATING) {
            throw new IllegalArgumentException("alternating sides are started for each turn: AlternatingRounds.run");
        }
        ComparisonLog log = new ComparisonLog(spec, rounds, seed, pairing, 1, a.target(), b.target(), directory);
        for (int round = 1; round <= rounds
                || (round <= rounds + extra.max() && extra.wanted().test(log.recording())); round++) {
            if (round > rounds) {
                log.addRound();
                progress.extraRound(round);
            }
            measureRound(spec, a, b, round, seed, pairing, valid, log, progress);
        }
        return log.recording();
    }

    /** One round: its order recorded, then every load point measured on both sides as {@code pairing} says. */
    static void measureRound(PerformanceSpec spec, Side a, Side b, int round, long seed, Pairing pairing,
            Predicate<PointMeasurement> valid, ComparisonLog log, Progress progress)
            throws IOException, InterruptedException {
        List<String> visits = roundOrder(spec.sweep().points(), seed, round);
        log.round(visits);
        if (pairing == Pairing.SIMULTANEOUS) {
            // The visit order still decides which side warms up first; the measurements then start together.
            for (int i = 0; i < visits.size(); i += 2) {
                String[] first = visits.get(i).split(" ");
                LoadPointKey key = LoadPointKey.parse(first[0]);
                boolean aFirst = first[1].equals(CompareRecording.A);
                for (CompareRecording.Measured result : measureTogether(aFirst ? a : b, aFirst ? b : a, key, round,
                        valid)) {
                    log.add(result);
                    progress.measured(round, result.side(), key, result.error());
                }
            }
            return;
        }
        for (String visit : visits) {
            String[] parts = visit.split(" ");
            LoadPointKey key = LoadPointKey.parse(parts[0]);
            Side side = parts[1].equals(CompareRecording.A) ? a : b;
            CompareRecording.Measured result = measureOne(side, key, round, valid);
            log.add(result);
            progress.measured(round, parts[1], key, result.error());
        }
    }

    /**
     * Warms both sides up (first, then second), then starts their measurements at one instant on two
     * threads and waits for both. Returns the two results, {@code first}'s first.
     */
    private static List<CompareRecording.Measured> measureTogether(Side first, Side second, LoadPointKey key,
            int round, Predicate<PointMeasurement> valid) throws InterruptedException {
        SpecRunner.PreparedRound[] prepared = new SpecRunner.PreparedRound[2];
        CompareRecording.Measured[] results = new CompareRecording.Measured[2];
        Error[] errors = new Error[2];
        Side[] sides = {first, second};
        for (int i = 0; i < 2; i++) {
            try {
                prepared[i] = sides[i].runner().prepareRound(key, round);
            } catch (IOException | RuntimeException e) {
                results[i] = failed(sides[i], key, round, e);
            }
        }
        CountDownLatch start = new CountDownLatch(1);
        Thread[] threads = new Thread[2];
        for (int i = 0; i < 2; i++) {
            if (prepared[i] == null) {
                continue;
            }
            int index = i;
            threads[i] = Thread.ofPlatform().name("servebench-compare-" + sides[i].name()).start(() -> {
                try {
                    start.await();
                    results[index] = measured(sides[index], key, round, valid, prepared[index].measure());
                } catch (IOException | RuntimeException e) {
                    results[index] = failed(sides[index], key, round, e);
                } catch (InterruptedException e) {
                    results[index] = failed(sides[index], key, round, e);
                    Thread.currentThread().interrupt();
                } catch (Error e) {
                    // An internal error (e.g. OutOfMemoryError) ends the comparison on the caller's thread, where
                    // the command reports it in one line, not as a stack trace of a dying thread.
                    errors[index] = e;
                }
            });
        }
        start.countDown();
        for (Thread thread : threads) {
            if (thread != null) {
                thread.join();
            }
        }
        for (Error error : errors) {
            if (error != null) {
                throw error;
            }
        }
        return List.of(results[0], results[1]);
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

    static CompareRecording.Measured measureOne(Side side, LoadPointKey key, int round,
            Predicate<PointMeasurement> valid) throws InterruptedException {
        try {
            return measured(side, key, round, valid, side.runner().measureRound(key, round));
        } catch (IOException | RuntimeException e) {
            return failed(side, key, round, e);
        }
    }

    /**
     * One failed measurement leaves that round unpaired at this point; the comparison goes on and the verdict
     * says how many rounds paired.
     */
    private static CompareRecording.Measured failed(Side side, LoadPointKey key, int round, Exception e) {
        return new CompareRecording.Measured(round, side.name(), key.toString(), false, Map.of(),
                dev.servebench.record.ErrorLine.of(e));
    }

    private static CompareRecording.Measured measured(Side side, LoadPointKey key, int round,
            Predicate<PointMeasurement> valid, PointMeasurement measurement) {
        String name = side.name();
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
