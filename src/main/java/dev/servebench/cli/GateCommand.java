package dev.servebench.cli;

import dev.servebench.results.AtomicFiles;
import dev.servebench.baseline.GateVerdict;
import dev.servebench.baseline.GateOutcome;
import dev.servebench.baseline.MachineDrift;
import dev.servebench.history.BaselineFiles;
import dev.servebench.history.RunGate;
import dev.servebench.history.RunSamples;
import dev.servebench.report.GateReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code servebench gate --run RUN_DIR --baseline FILE}: compares a perf run with its baseline per metric
 * and load point (docs/gate.md). Exit 0 no regression, 1 regression, 2 bad input or a baseline of another
 * fingerprint, 3 the run is invalid: a load point failed its validity conditions, or the machine speed probe
 * says the machine itself drifted since the baseline's runs ({@link MachineDrift}); nothing is judged; 5 a gated
 * metric × load point could not be judged (fewer than 2 samples, or missing on a side): a gate that compared
 * nothing must not pass.
 */
@Command(name = "gate", mixinStandardHelpOptions = true,
        description = "Compare a perf run with its baseline; JUnit XML + Markdown; exit 0 ok, 1 regression,"
                + " 2 bad input, 3 invalid run, 5 a gated comparison could not be judged.")
public final class GateCommand implements Callable<Integer> {

    static final int REGRESSION = 1;
    static final int BAD_INPUT = 2;
    static final int INVALID_RUN = 3;
    /** A gated metric × load point could not be judged: a gate that compared nothing must not pass. */
    static final int NOT_JUDGED = 5;

    @Spec
    CommandSpec spec;

    @Option(names = "--run", required = true, paramLabel = "RUN_DIR",
            description = "A reports/perf/<spec>-<time> directory, or a directory of them (its newest run).")
    Path run;

    @Option(names = "--baseline", paramLabel = "FILE",
            description = "Baseline file (default: BASELINES/<spec>/<the run's fingerprint>.json).")
    Path baseline;

    @Option(names = "--baselines", paramLabel = "DIR", defaultValue = "reports/baselines",
            description = "Where baselines live (default: ${DEFAULT-VALUE}).")
    Path baselines;

    @Option(names = "--junit", paramLabel = "FILE", description = "JUnit XML output (default: RUN_DIR/gate-junit.xml).")
    Path junit;

    @Option(names = "--markdown", paramLabel = "FILE", description = "Markdown summary (default: RUN_DIR/gate.md).")
    Path markdown;

    @Override
    public Integer call() throws IOException {
        RunSamples current;
        RunSamples base;
        try {
            run = BaselineFiles.resolveRun(run);
            current = BaselineFiles.readRun(run);
            base = BaselineFiles.readBaseline(baseline != null ? baseline : BaselineFiles.baselineFor(current, baselines));
        } catch (NoSuchFileException e) {
            return fail(e.getFile() + ": " + (e.getReason() == null ? "not found" : e.getReason()));
        } catch (IllegalArgumentException | com.fasterxml.jackson.core.JacksonException e) {
            return fail(e.getMessage());
        }
        if (!current.fingerprint().equals(base.fingerprint())) {
            return fail("the run's environment fingerprint " + current.fingerprint() + " differs from the baseline's "
                    + base.fingerprint() + ": runs are only compared with a baseline of the same spec and environment");
        }
        if (!current.allValid()) {
            spec.commandLine().getErr().println("servebench: invalid run: load points "
                    + current.points().stream().filter(p -> !p.valid()).map(RunSamples.PointSamples::point).toList()
                    + " failed their validity conditions; nothing is judged");
            return INVALID_RUN;
        }
        return judge(base, current, "servebench gate: " + current.spec() + " vs baseline " + base.fingerprint(),
                junit != null ? junit : run.resolve("gate-junit.xml"),
                markdown != null ? markdown : run.resolve("gate.md"), spec.commandLine().getOut(),
                spec.commandLine().getErr());
    }

    /**
     * The gate's decision of {@code current} against {@code base}: every gated metric × load point and the
     * machine drift check ({@link RunGate}), JUnit XML and Markdown written, the Markdown printed; returns the
     * exit code. Also what {@code servebench compare --unpaired-baseline} runs ({@link UnpairedJudgement}).
     */
    static int judge(RunSamples base, RunSamples current, String title, Path junit, Path markdown, PrintWriter out,
            PrintWriter err) throws IOException {
        List<GateOutcome> outcomes = RunGate.compare(base, current);
        MachineDrift drift = RunGate.drift(base, current);
        String summary = GateReport.markdown(title, outcomes, drift);
        AtomicFiles.write(junit, GateReport.junitXml("gate." + current.spec(), outcomes, drift));
        AtomicFiles.write(markdown, summary);
        out.print(summary);
        out.flush();
        if (drift.drifted()) {
            err.println("servebench: invalid run: " + drift.message());
            err.flush();
            return INVALID_RUN;
        }
        if (outcomes.stream().anyMatch(o -> o.verdict().fails())) {
            return REGRESSION;
        }
        long unjudged = outcomes.stream().filter(o -> o.verdict() == GateVerdict.INSUFFICIENT_DATA).count();
        if (unjudged > 0 || outcomes.isEmpty()) {
            err.println("servebench: not judged: " + (outcomes.isEmpty()
                    ? "the run and the baseline have no load point in common"
                    : unjudged + " gated metric × load point comparison(s) had too few samples or were missing on"
                            + " a side (repeats >= 2 on both sides are needed)"));
            err.flush();
            return NOT_JUDGED;
        }
        return 0;
    }


    private int fail(String message) {
        spec.commandLine().getErr().println("servebench: " + message);
        spec.commandLine().getErr().flush();
        return BAD_INPUT;
    }
}
