package dev.servebench.cli;

import dev.servebench.baseline.GateOutcome;
import dev.servebench.baseline.GateVerdict;
import dev.servebench.baseline.MachineDrift;
import dev.servebench.history.RunGate;
import dev.servebench.history.RunSamples;
import dev.servebench.perf.CompareRecording;
import dev.servebench.report.GateReport;
import dev.servebench.results.AtomicFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code servebench compare --judge DIR --unpaired-baseline BASE}: the B side of one recorded comparison
 * judged against the A side of another exactly as {@code servebench gate} judges a run against a baseline
 * recorded earlier (each round a repeat; the gate's unpaired statistics, tolerances, Holm and machine-drift
 * check), so that the history gate and the paired comparison can be set side by side on the same
 * measurements of the same hours (docs/gate.md, "Side by side"). Exit codes are the gate's.
 */
final class UnpairedJudgement {

    private UnpairedJudgement() {
    }

    static int judge(Path directory, CompareRecording run, Path baselineDirectory, CompareRecording baseline,
            Path junit, Path markdown, PrintWriter out, PrintWriter err) throws IOException {
        if (!run.specSha256().equals(baseline.specSha256())) {
            err.println("servebench: " + directory + " and " + baselineDirectory + " measured different specs ("
                    + run.specSha256() + ", " + baseline.specSha256() + "); only the same spec can be compared");
            err.flush();
            return GateCommand.BAD_INPUT;
        }
        RunSamples base = baseline.sideAsRun(CompareRecording.A);
        RunSamples current = run.sideAsRun(CompareRecording.B);
        List<GateOutcome> outcomes = RunGate.compare(base, current);
        MachineDrift drift = RunGate.drift(base, current);
        String summary = GateReport.markdown("servebench gate (unpaired): B of " + directory + " vs A of "
                + baselineDirectory + ", each round a repeat", outcomes, drift);
        AtomicFiles.write(junit != null ? junit : directory.resolve("unpaired-junit.xml"),
                GateReport.junitXml("gate." + run.spec(), outcomes, drift));
        AtomicFiles.write(markdown != null ? markdown : directory.resolve("unpaired.md"), summary);
        out.print(summary);
        out.flush();
        if (drift.drifted()) {
            err.println("servebench: invalid run: " + drift.message());
            err.flush();
            return GateCommand.INVALID_RUN;
        }
        if (outcomes.stream().anyMatch(o -> o.verdict().fails())) {
            return GateCommand.REGRESSION;
        }
        return outcomes.stream().anyMatch(o -> o.verdict() == GateVerdict.INSUFFICIENT_DATA) || outcomes.isEmpty()
                ? GateCommand.NOT_JUDGED : 0;
    }
}
