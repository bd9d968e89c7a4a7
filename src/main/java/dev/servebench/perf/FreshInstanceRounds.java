package dev.servebench.perf;

import dev.servebench.record.ErrorLine;
import dev.servebench.results.PointMeasurement;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Predicate;

/**
 * A comparison whose planned rounds are split into {@link InstanceBlocks}: before each block both sides are
 * started afresh, after the previous block's servers were stopped, in a seeded random order, and within a block
 * the rounds are {@link CompareRun}'s, sequential or simultaneous pairs. The order is random because it matters:
 * with embedded engines in one JVM, the first engine the JVM started was never the slow instance (0 of 172), while
 * each one started after it was 12–15 % slower at concurrency 16 in about 7 % of starts (docs/gate.md, "Server
 * instances"); a fixed order would give that advantage to the same side in every first block. Rounds added to
 * replace disturbed ones run on the last block's servers. A side that fails to start leaves every point of its
 * block unpaired, with the reason; the comparison goes on with the next block.
 */
public final class FreshInstanceRounds {

    private FreshInstanceRounds() {
    }

    /** Runs the blocks' rounds, then the {@code extra} ones, writing {@code compare.json} after every measurement. */
    public static CompareRecording run(PerformanceSpec spec, AlternatingRounds.Launcher a,
            AlternatingRounds.Launcher b, InstanceBlocks blocks, CompareRun.ExtraRounds extra, long seed,
            CompareRun.Pairing pairing, Predicate<PointMeasurement> valid, Path directory,
            CompareRun.Progress progress) throws IOException, InterruptedException {
        if (pairing == CompareRun.Pairing.ALTERNATING) {
            throw new IllegalArgumentException("alternating sides are started for each turn: AlternatingRounds.run");
        }
        int rounds = blocks.rounds();
        ComparisonLog log = new ComparisonLog(spec, rounds, seed, pairing, blocks.instances(), a.target(),
                b.target(), directory);
        Instance instanceA = null;
        Instance instanceB = null;
        int round = 1;
        try {
            for (; round <= rounds
                    || (round <= rounds + extra.max() && extra.wanted().test(log.recording())); round++) {
                if (round > rounds) {
                    log.addRound();
                    progress.extraRound(round);
                }
                if (blocks.startsBlock(round)) {
                    // reported as after the last round these servers measured
                    stop(instanceA, round - 1, progress);
                    instanceA = null;
                    stop(instanceB, round - 1, progress);
                    instanceB = null;
                    if (aStartsFirst(seed, round)) {
                        instanceA = start(a, CompareRecording.A, round, log);
                        instanceB = start(b, CompareRecording.B, round, log);
                    } else {
                        instanceB = start(b, CompareRecording.B, round, log);
                        instanceA = start(a, CompareRecording.A, round, log);
                    }
                }
                if (instanceA.started() != null && instanceB.started() != null) {
                    CompareRun.measureRound(spec, instanceA.started().side(), instanceB.started().side(), round, seed,
                            pairing, valid, log, progress);
                } else {
                    unpaired(spec, round, seed, instanceA.started() == null ? instanceA.notStarted()
                            : instanceB.notStarted(), log, progress);
                }
            }
        } finally {
            stop(instanceA, round - 1, progress);
            stop(instanceB, round - 1, progress);
        }
        return log.recording();
    }

    /** Whether A's server is started before B's for the block from {@code round}: a seeded coin per block. */
    static boolean aStartsFirst(long seed, int round) {
        return new SplittableRandom(seed * 1_000_003L - round).nextBoolean();
    }

    /** A side's servers for one block: started, or why not. */
    private record Instance(String side, AlternatingRounds.Started started, String notStarted) {
    }

    private static Instance start(AlternatingRounds.Launcher launcher, String side, int round, ComparisonLog log)
            throws InterruptedException {
        try {
            AlternatingRounds.Started started = launcher.start(round);
            log.started(side, started.side().target(), launcher.target());
            return new Instance(side, started, "");
        } catch (IOException | RuntimeException e) {
            return new Instance(side, null, side + " not started for the block from round " + round + ": "
                    + ErrorLine.of(e));
        }
    }

    /** The round's order is recorded and each of its measurements is a failure saying which side did not start. */
    private static void unpaired(PerformanceSpec spec, int round, long seed, String reason, ComparisonLog log,
            CompareRun.Progress progress) throws IOException {
        List<String> visits = CompareRun.roundOrder(spec.sweep().points(), seed, round);
        log.round(visits);
        for (String visit : visits) {
            String[] parts = visit.split(" ");
            LoadPointKey key = LoadPointKey.parse(parts[0]);
            log.add(new CompareRecording.Measured(round, parts[1], key.toString(), false, Map.of(), reason));
            progress.measured(round, parts[1], key, reason);
        }
    }

    private static void stop(Instance instance, int round, CompareRun.Progress progress) throws InterruptedException {
        if (instance != null && instance.started() != null) {
            AlternatingRounds.stop(instance.started(), instance.side(), round, progress);
        }
    }
}
