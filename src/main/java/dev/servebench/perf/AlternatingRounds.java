package dev.servebench.perf;

import dev.servebench.record.ErrorLine;
import dev.servebench.results.PointMeasurement;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.function.Predicate;

/**
 * The comparison's {@link CompareRun.Pairing#ALTERNATING} rounds: for two servers that cannot be up together,
 * each side is started for its turn in a round and stopped after it; everything else (the recording, the
 * validity of a measurement, the verdict) is {@link CompareRun}'s.
 */
public final class AlternatingRounds {

    private AlternatingRounds() {
    }

    /**
     * A side whose server the comparison starts for each of its turns and stops after it
     * ({@link CompareRun.Pairing#ALTERNATING}).
     */
    public interface Launcher {
        /**
         * How the side is started, e.g. {@code started for each turn}; compare.json adds what its first start
         * described.
         */
        String target();

        /** Starts the side's server for {@code round}; closing the result stops it. */
        Started start(int round) throws IOException, InterruptedException;
    }

    /**
     * A started side: its runner and server, stopped by {@link #stop} (not AutoCloseable: stopping may be
     * interrupted, and {@link AlternatingRounds#stop} passes the interrupt on).
     */
    public record Started(CompareRun.Side side, AutoCloseable server) {
        public Started {
            Objects.requireNonNull(side, "side");
            Objects.requireNonNull(server, "server");
        }

        /** The runner's client closes first, then the server it was talking to. */
        public void stop() throws Exception {
            try (server) {
                side.runner().close();
            }
        }
    }

    /**
     * {@link CompareRun.Pairing#ALTERNATING}: in each round the sides take turns in a random order (seeded),
     * each started before and stopped after its turn, in which it measures every load point (points shuffled
     * per round, the same order for both sides). A side that fails to start (or to stop, so that the other cannot start)
     * leaves its points of that round unmeasured, with the reason; the comparison goes on. Writes
     * {@code compare.json} after every measurement.
     */
    public static CompareRecording run(PerformanceSpec spec, Launcher a, Launcher b, int rounds, long seed,
            Predicate<PointMeasurement> valid, Path directory, CompareRun.Progress progress)
            throws IOException, InterruptedException {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be >= 1");
        }
        ComparisonLog log = new ComparisonLog(spec, rounds, seed, CompareRun.Pairing.ALTERNATING, rounds, a.target(),
                b.target(), directory);
        for (int round = 1; round <= rounds; round++) {
            List<String> visits = alternatingOrder(spec.sweep().points(), seed, round);
            log.round(visits);
            for (int half = 0; half < 2; half++) {
                List<String> turn = visits.subList(half * visits.size() / 2, (half + 1) * visits.size() / 2);
                String name = turn.getFirst().split(" ")[1];
                Launcher launcher = name.equals(CompareRecording.A) ? a : b;
                turn(launcher, name, turn, round, valid, progress, log);
            }
        }
        return log.recording();
    }

    /** One side's turn: start, measure its visits in order (each result added to {@code log}), stop. */
    private static void turn(Launcher launcher, String name, List<String> visits, int round,
            Predicate<PointMeasurement> valid, CompareRun.Progress progress, ComparisonLog log)
            throws IOException, InterruptedException {
        Started side = null;
        String notStarted = "";
        try {
            side = launcher.start(round);
            log.started(name, side.side().target(), launcher.target());
        } catch (IOException | RuntimeException e) {
            notStarted = "not started for round " + round + ": " + ErrorLine.of(e);
        }
        try {
            for (String visit : visits) {
                LoadPointKey key = LoadPointKey.parse(visit.split(" ")[0]);
                CompareRecording.Measured result = side == null
                        ? new CompareRecording.Measured(round, name, key.toString(), false, Map.of(), notStarted)
                        : CompareRun.measureOne(side.side(), key, round, valid);
                log.add(result);
                progress.measured(round, name, key, result.error());
            }
        } finally {
            if (side != null) {
                stop(side, name, round, progress);
            }
        }
    }

    /** A server that does not stop is reported; the other side's start then says what it found. */
    static void stop(Started side, String name, int round, CompareRun.Progress progress)
            throws InterruptedException {
        try {
            side.stop();
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            progress.stopFailed(round, name, ErrorLine.of(e));
        }
    }

    /**
     * The visits of one alternating round, e.g. {@code ["concurrency=16 B", "concurrency=1 B", "concurrency=16 A",
     * "concurrency=1 A"]}: which side goes first by a coin, the points shuffled once for both turns.
     */
    static List<String> alternatingOrder(List<LoadPointKey> points, long seed, int round) {
        Random random = new Random(seed * 1_000_003L + round);
        List<LoadPointKey> shuffled = new ArrayList<>(points);
        Collections.shuffle(shuffled, random);
        boolean aFirst = random.nextBoolean();
        List<String> visits = new ArrayList<>();
        for (String side : aFirst ? List.of(CompareRecording.A, CompareRecording.B)
                : List.of(CompareRecording.B, CompareRecording.A)) {
            for (LoadPointKey point : shuffled) {
                visits.add(point + " " + side);
            }
        }
        return visits;
    }
}
