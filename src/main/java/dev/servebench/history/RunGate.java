package dev.servebench.history;

import dev.servebench.baseline.GateComparison;
import dev.servebench.baseline.GateOutcome;
import dev.servebench.baseline.GatedMetrics;
import dev.servebench.baseline.Holm;
import dev.servebench.baseline.MachineDrift;
import dev.servebench.baseline.Tolerance;
import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.ArrayList;
import java.util.List;

/**
 * The regression gate's decision for one run against its baseline: every gated metric at every load point
 * (a comparison that cannot be made is kept as such, never dropped), Holm's correction across them, and the
 * machine drift check. Pure: the command only reads the files and writes the verdicts.
 */
public final class RunGate {

    private RunGate() {
    }

    /** The machine speed probe of {@code current} against {@code base}'s, at the gate's defaults. */
    public static MachineDrift drift(RunSamples base, RunSamples current) {
        return MachineDrift.check(base.machineProbeMs(), current.machineProbeMs(), MachineDrift.DEFAULT_TOLERANCE,
                Tolerance.DEFAULT_ALPHA);
    }

    /**
     * Every judged metric at every common load point, then Holm's step-down correction over all of them
     * ({@link Holm}).
     */
    public static List<GateOutcome> compare(RunSamples base, RunSamples current) {
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
        return Holm.correct(outcomes, tolerance.alpha(), (index, alpha) -> {
            GateOutcome outcome = outcomes.get(index);
            return GateComparison.compare(outcome.metric(), outcome.point(), samples.get(index)[0],
                    samples.get(index)[1], tolerance.withAlpha(alpha), seed(outcome.metric(), outcome.point()));
        });
    }

    private static long seed(MetricId metric, LoadPointKey point) {
        return (metric.id() + "@" + point).hashCode();
    }

    /** {@code concurrency=8}, {@code rate=4}, {@code concurrency=8,rate=4} (as LoadPointKey prints them). */
    public static LoadPointKey parsePoint(String text) {
        return LoadPointKey.parse(text);
    }
}
