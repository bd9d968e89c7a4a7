package dev.servebench.cli;

import dev.servebench.perf.CompareRecording;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

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
        return GateCommand.judge(baseline.sideAsRun(CompareRecording.A), run.sideAsRun(CompareRecording.B),
                "servebench gate (unpaired): B of " + directory + " vs A of " + baselineDirectory
                        + ", each round a repeat",
                junit != null ? junit : directory.resolve("unpaired-junit.xml"),
                markdown != null ? markdown : directory.resolve("unpaired.md"), out, err);
    }
}
