package dev.servebench.baseline;

import dev.servebench.metric.KernelMetric;
import dev.servebench.spec.KernelPoint;
import java.util.Objects;
import java.util.OptionalDouble;

/** The kernel A/B comparison's verdict on one figure at one kernel point ({@link KernelPairedGate}). */
public record KernelOutcome(KernelMetric metric, KernelPoint point, PairedJudgement judgement) implements GateCase {

    public KernelOutcome {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(point, "point");
        Objects.requireNonNull(judgement, "judgement");
    }

    @Override
    public String subject() {
        return KernelPairedPoint.subject(metric, point);
    }

    @Override
    public String group() {
        return point.benchmark().className();
    }

    @Override
    public GateVerdict verdict() {
        return judgement.verdict();
    }

    @Override
    public OptionalDouble pValue() {
        return judgement.pValue();
    }

    @Override
    public double alpha() {
        return judgement.alpha();
    }

    @Override
    public String message() {
        PairedJudgement j = judgement;
        return GateMessages.line(subject(), metric.unit().symbol(), j.medianA(), j.rounds(), j.medianB(), j.rounds(),
                j.change(), j.interval(), j.pValue(), j.method(), j.test(), j.tolerance(), j.alpha(), j.verdict());
    }
}
