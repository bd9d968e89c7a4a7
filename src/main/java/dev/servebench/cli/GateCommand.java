package dev.servebench.cli;

import dev.servebench.results.AtomicFiles;
import dev.servebench.baseline.GateComparison;
import dev.servebench.baseline.GateVerdict;
import dev.servebench.baseline.GateOutcome;
import dev.servebench.baseline.GatedMetrics;
import dev.servebench.baseline.MachineDrift;
import dev.servebench.baseline.Tolerance;
import dev.servebench.history.BaselineFiles;
import dev.servebench.history.RunSamples;
import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import dev.servebench.report.GateReport;
import dev.servebench.spec.LoadPointKey;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
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
        List<GateOutcome> outcomes = compare(base, current);
        MachineDrift drift = drift(base, current);
        String summary = GateReport.markdown("servebench gate: " + current.spec() + " vs baseline " + base.fingerprint(),
                outcomes, drift);
        AtomicFiles.write(junit != null ? junit : run.resolve("gate-junit.xml"),
                GateReport.junitXml("gate." + current.spec(), outcomes, drift));
        AtomicFiles.write(markdown != null ? markdown : run.resolve("gate.md"), summary);
        spec.commandLine().getOut().print(summary);
        spec.commandLine().getOut().flush();
        if (drift.drifted()) {
            spec.commandLine().getErr().println("servebench: invalid run: " + drift.message());
            spec.commandLine().getErr().flush();
            return INVALID_RUN;
        }
        if (outcomes.stream().anyMatch(o -> o.verdict().fails())) {
            return REGRESSION;
        }
        long unjudged = outcomes.stream().filter(o -> o.verdict() == GateVerdict.INSUFFICIENT_DATA).count();
        if (unjudged > 0 || outcomes.isEmpty()) {
            spec.commandLine().getErr().println("servebench: not judged: " + (outcomes.isEmpty()
                    ? "the run and the baseline have no load point in common"
                    : unjudged + " gated metric × load point comparison(s) had too few samples or were missing on"
                            + " a side (repeats >= 2 on both sides are needed)"));
            spec.commandLine().getErr().flush();
            return NOT_JUDGED;
        }
        return 0;
    }

    /**
     * Every judged metric at every common load point, then Holm's step-down correction over all of them: a
     * gate makes dozens of comparisons, and without it one would fail on noise far more often than alpha.
     * A comparison that loses its significance under Holm is recomputed at its corrected alpha, so its
     * message shows the threshold it was held to.
     */
    /** The machine speed probe of {@code current} against {@code base}'s, at the gate's defaults. */
    static MachineDrift drift(RunSamples base, RunSamples current) {
        return MachineDrift.check(base.machineProbeMs(), current.machineProbeMs(), MachineDrift.DEFAULT_TOLERANCE,
                Tolerance.DEFAULT_ALPHA);
    }

    static List<GateOutcome> compare(RunSamples base, RunSamples current) {
        Tolerance tolerance = Tolerance.defaults();
        List<GateOutcome> outcomes = new ArrayList<>();
        List<double[][]> samples = new ArrayList<>();
        for (RunSamples.PointSamples point : current.points()) {
            RunSamples.PointSamples before = base.point(point.point()).orElse(null);
            LoadPointKey key = parsePoint(point.point());
            for (MetricId metric : MetricId.values()) {
                double[] now = point.metrics().get(metric.id());
                double[] then = before == null ? null : before.metrics().get(metric.id());
                if (metric.direction() == Direction.INFORMATIONAL || (now == null && then == null)) {
                    continue;
                }
                if (now == null || then == null) {
                    // Missing on a side: a gated metric is then unjudged (never a silent pass), others are skipped.
                    if (GatedMetrics.gated(metric)) {
                        outcomes.add(GateComparison.compare(metric, key, then == null ? new double[0] : then,
                                now == null ? new double[0] : now, tolerance, seed(metric, key)));
                        samples.add(new double[][] {then == null ? new double[0] : then, now == null ? new double[0] : now});
                    }
                    continue;
                }
                outcomes.add(GatedMetrics.gated(metric)
                        ? GateComparison.compare(metric, key, then, now, tolerance, seed(metric, key))
                        : GateComparison.reported(metric, key, then, now, tolerance, GatedMetrics.whyNotGated(metric)));
                samples.add(new double[][] {then, now});
            }
        }
        for (RunSamples.PointSamples before : base.points()) {
            if (current.point(before.point()).isEmpty()) {
                LoadPointKey key = parsePoint(before.point());
                for (MetricId metric : MetricId.values()) {
                    double[] then = before.metrics().get(metric.id());
                    if (then != null && GatedMetrics.gated(metric) && metric.direction() != Direction.INFORMATIONAL) {
                        outcomes.add(GateComparison.compare(metric, key, then, new double[0], tolerance, seed(metric, key)));
                        samples.add(new double[][] {then, new double[0]});
                    }
                }
            }
        }
        return holm(outcomes, samples, tolerance);
    }

    private static List<GateOutcome> holm(List<GateOutcome> outcomes, List<double[][]> samples, Tolerance tolerance) {
        List<Integer> tested = new ArrayList<>();
        for (int i = 0; i < outcomes.size(); i++) {
            if (outcomes.get(i).pValue().isPresent()) {
                tested.add(i);
            }
        }
        tested.sort(java.util.Comparator.comparingDouble(i -> outcomes.get(i).pValue().getAsDouble()));
        int m = tested.size();
        double failedThreshold = Double.NaN;
        List<GateOutcome> corrected = new ArrayList<>(outcomes);
        for (int rank = 0; rank < m; rank++) {
            int index = tested.get(rank);
            GateOutcome outcome = outcomes.get(index);
            double threshold = tolerance.alpha() / (m - rank);
            if (Double.isNaN(failedThreshold) && outcome.pValue().getAsDouble() > threshold) {
                failedThreshold = threshold; // step-down: this and every larger p-value keep their null
            }
            double held = Double.isNaN(failedThreshold) ? threshold : failedThreshold;
            if (outcome.alpha() != held) {
                corrected.set(index, GateComparison.compare(outcome.metric(), outcome.point(), samples.get(index)[0],
                        samples.get(index)[1], tolerance.withAlpha(held), seed(outcome.metric(), outcome.point())));
            }
        }
        return corrected;
    }

    private static long seed(MetricId metric, LoadPointKey point) {
        return (metric.id() + "@" + point).hashCode();
    }

    /** {@code concurrency=8}, {@code rate=4}, {@code concurrency=8,rate=4} (as LoadPointKey prints them). */
    static LoadPointKey parsePoint(String text) {
        return LoadPointKey.parse(text);
    }

    private int fail(String message) {
        spec.commandLine().getErr().println("servebench: " + message);
        spec.commandLine().getErr().flush();
        return BAD_INPUT;
    }
}
