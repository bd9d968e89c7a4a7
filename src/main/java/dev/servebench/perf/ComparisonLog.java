package dev.servebench.perf;

import dev.servebench.spec.PerformanceSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an A/B comparison has recorded so far (targets, each round's order, every measurement), rewritten to
 * {@code compare.json} after each measurement so that an interrupted comparison keeps what it measured. Shared
 * by every pairing ({@link CompareRun}, {@link AlternatingRounds}).
 */
final class ComparisonLog {

    private final PerformanceSpec spec;
    private final int plannedRounds;
    private int rounds;
    private final long seed;
    private final CompareRun.Pairing pairing;
    private final int instances;
    private final Path directory;
    private final Map<String, String> targets = new LinkedHashMap<>();
    private final List<List<String>> order = new ArrayList<>();
    private final List<CompareRecording.Measured> measured = new ArrayList<>();
    private final long started = System.nanoTime();

    ComparisonLog(PerformanceSpec spec, int rounds, long seed, CompareRun.Pairing pairing, int instances,
            String targetA, String targetB, Path directory) {
        this.spec = spec;
        this.plannedRounds = rounds;
        this.rounds = rounds;
        this.seed = seed;
        this.pairing = pairing;
        this.instances = instances;
        this.directory = directory;
        targets.put(CompareRecording.A, targetA);
        targets.put(CompareRecording.B, targetB);
    }

    /** One round more than planned: the recording counts it from now on. */
    void addRound() {
        rounds++;
    }

    /** A round's visits, recorded before it is measured. */
    void round(List<String> visits) {
        order.add(visits);
    }

    /** Records one measurement and rewrites compare.json. */
    void add(CompareRecording.Measured result) throws IOException {
        measured.add(result);
        recording().write(directory);
    }

    /**
     * A side was started ({@code howStarted}: how it is started each time, the target it was created with). The
     * first start names the side's target better, with what it started; later ones differ only in their address.
     */
    void started(String side, String startedTarget, String howStarted) {
        if (targets.get(side).equals(howStarted)) {
            targets.put(side, startedTarget + "; " + howStarted);
        }
    }

    CompareRecording recording() {
        return new CompareRecording(CompareRecording.FORMAT, spec.name(), spec.source().sha256(), rounds, plannedRounds,
                seed, pairing, instances, targets, order, measured, (System.nanoTime() - started) / 1e9);
    }
}
