package dev.servebench.cli;

import dev.servebench.history.RunGate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.baseline.GateVerdict;
import dev.servebench.baseline.MachineDrift;
import dev.servebench.history.BaselineFiles;
import dev.servebench.history.RunSamples;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The machine drift check on real runs: the 2026-12-03 recording of the gate spec (repeats interleaved, the
 * machine speed probe timed before every repeat), eight A/A runs and four runs with a 15 % longer token gap,
 * on the shared 2-core build machine while it drifted (docs/gate.md, "Acceptance on recorded runs"). The
 * check cannot make such a machine quiet; what it must do is turn comparisons made on a changed machine into
 * "invalid run, rerun" instead of wrong verdicts.
 */
class RecordedMachineDriftTest {

    static final Path RECORDING = GateAcceptanceTest.NEWEST;
    /** The last A/A run: its probe's median time was about 50 % above every other run's. */
    static final String SLOWED_MACHINE_RUN = "embedded-gate-20261203-041131";

    @TempDir
    Path directory;
    private int baselines;

    @Test
    void aRunWhoseProbeTookHalfAsLongAgainIsInvalidAgainstEveryBaselineWithoutIt() throws IOException {
        List<Path> aa = GateAcceptanceTest.runs(RECORDING, "aa");
        Path slowMachine = aa.stream().filter(p -> p.getFileName().toString().equals(SLOWED_MACHINE_RUN))
                .findFirst().orElseThrow();
        List<Path> others = new ArrayList<>(aa);
        others.remove(slowMachine);
        for (List<Path> chosen : GateAcceptanceTest.choices(others, GateAcceptanceTest.BASELINE_RUNS)) {
            MachineDrift drift = judge(chosen, slowMachine).drift();
            assertThat(drift.drifted()).as("%s against %s", drift.message(), chosen).isTrue();
            assertThat(drift.relativeChange()).as(drift.message()).isGreaterThan(0.3);
        }
    }

    /**
     * A wrong verdict is a regression between runs of one build, or a slowed run that passes. Without the
     * check every comparison gets a verdict; with it, drifted ones get none. If the probe knew nothing about
     * the machine, the comparisons it sets aside would be a random sample and the judged ones would be wrong
     * as often as all of them; they must be wrong less often, for the runs of one build and the slowed runs.
     */
    @Test
    void theComparisonsItLetsThroughAreWrongLessOftenThanAllOfThem() throws IOException {
        Tally identical = tally("aa");
        Tally slowed = tally("slow");
        assertThat(identical.drifted()).as("A/A: %s", identical).isPositive();
        assertThat(identical.wrongJudgedRate()).as("A/A: %s", identical).isLessThan(identical.wrongUncheckedRate());
        assertThat(slowed.drifted()).as("slowed: %s", slowed).isPositive();
        assertThat(slowed.wrongJudgedRate()).as("slowed: %s", slowed).isLessThan(slowed.wrongUncheckedRate());
    }

    /** Counts over every comparison of one kind of run with every 3-run A/A baseline not containing it. */
    record Tally(int comparisons, int drifted, int wrongUnchecked, int wrongJudged) {
        double wrongUncheckedRate() {
            return wrongUnchecked / (double) comparisons;
        }

        double wrongJudgedRate() {
            return wrongJudged / (double) (comparisons - drifted);
        }
    }

    private Tally tally(String kind) throws IOException {
        boolean slowed = kind.equals("slow");
        int comparisons = 0;
        int drifted = 0;
        int wrongUnchecked = 0;
        int wrongJudged = 0;
        List<Path> aa = GateAcceptanceTest.runs(RECORDING, "aa");
        for (Path current : GateAcceptanceTest.runs(RECORDING, kind)) {
            List<Path> others = new ArrayList<>(aa);
            others.remove(current);
            for (List<Path> chosen : GateAcceptanceTest.choices(others, GateAcceptanceTest.BASELINE_RUNS)) {
                Judgement judgement = judge(chosen, current);
                boolean wrong = judgement.regressed() != slowed;
                comparisons++;
                wrongUnchecked += wrong ? 1 : 0;
                if (judgement.drift().drifted()) {
                    drifted++;
                } else {
                    wrongJudged += wrong ? 1 : 0;
                }
            }
        }
        return new Tally(comparisons, drifted, wrongUnchecked, wrongJudged);
    }

    record Judgement(MachineDrift drift, boolean regressed) {
    }

    private Judgement judge(List<Path> baselineRuns, Path current) throws IOException {
        RunSamples now = BaselineFiles.readRun(current);
        RunSamples base = GateAcceptanceTest.pooledBaseline(baselineRuns, directory.resolve("baselines-" + baselines++));
        MachineDrift drift = RunGate.drift(base, now);
        assertThat(drift.status()).as("%s: probe samples recorded", current).isNotEqualTo(MachineDrift.Status.NOT_CHECKED);
        boolean regressed = RunGate.compare(base, now).stream().anyMatch(o -> o.verdict() == GateVerdict.REGRESSION);
        return new Judgement(drift, regressed);
    }
}
