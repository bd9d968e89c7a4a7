package dev.servebench.roofline;

import java.util.Objects;

/**
 * The decode step of B sequences, each attending to L cached tokens: the fastest a step can be on the
 * hardware, and the output throughput and inter-token latency that follow.
 */
public record DecodeBound(ModelShape model, HardwareShape hardware, int batch, int context, StepCost step) {

    public DecodeBound {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(hardware, "hardware");
        Objects.requireNonNull(step, "step");
    }

    /**
     * Bytes: dense weights + E(1 − (1 − k/E)^B) experts × bytes per expert × MoE layers + B × L × KV bytes per
     * token; FLOPs: 2 × active × B + 4 × B × L × layers × attention width; collectives: 2 per layer.
     */
    public static DecodeBound of(ModelShape model, HardwareShape hardware, int batch, int context) {
        if (batch < 1) throw new IllegalArgumentException("batch must be >= 1, got " + batch);
        if (context < 0) throw new IllegalArgumentException("context must be >= 0 tokens, got " + context);
        double pairs = (double) batch * context;
        StepCost step = StepCost.of(model, hardware, batch, pairs, pairs * model.kvBytesPerToken());
        return new DecodeBound(model, hardware, batch, context, step);
    }

    /**
     * The ceiling over all batch sizes at context L: every time is a + b·B (weights are the fixed part a, KV
     * reads, FLOPs and allreduce bytes grow with B), so B / max(a + b·B) rises with B towards 1 / max(b) and
     * never exceeds it. An upper bound for any batch, for measurements whose batch is not published.
     */
    public static Ceiling ceiling(ModelShape model, HardwareShape hardware, int context) {
        if (context < 0) throw new IllegalArgumentException("context must be >= 0 tokens, got " + context);
        StepCost one = DecodeBound.of(model, hardware, 1, context).step();
        int tp = model.tensorParallel();
        double memory = context * model.kvBytesPerToken() / (model.kvShardedByTp() ? tp : 1)
                / hardware.memoryBandwidth().value();
        double compute = one.computeSeconds();
        double communication = one.collectives() == 0 ? 0
                : one.collectives() * one.messageBytes() * 2.0 * (tp - 1) / tp / hardware.busBandwidth().value();
        StepCost perSequence = new StepCost(1, 0, 0, 0, one.flopsPerGpu(), one.collectives(), one.messageBytes(),
                memory, compute, communication);
        return new Ceiling(context, perSequence);
    }

    /** The batch-independent ceiling: per-sequence times and 1 / the largest of them. */
    public record Ceiling(int context, StepCost perSequence) {
        public double outputThroughput() {
            return 1 / perSequence.lowerBoundSeconds();
        }

        public LimitingTerm limitingTerm() {
            return perSequence.limitingTerm();
        }
    }

    public double lowerBoundSeconds() {
        return step.lowerBoundSeconds();
    }

    public double additiveSeconds() {
        return step.additiveSeconds();
    }

    public LimitingTerm limitingTerm() {
        return step.limitingTerm();
    }

    /** B / lower bound: output tok/s no engine can beat on this hardware (without speculative decoding). */
    public double rooflineOutputThroughput() {
        return batch / step.lowerBoundSeconds();
    }

    /** B / additive estimate: output tok/s if nothing overlaps. */
    public double additiveOutputThroughput() {
        return batch / step.additiveSeconds();
    }

    /** The lower bound of a step in ms: no stream can see tokens closer together than this. */
    public double minItlMs() {
        return step.lowerBoundSeconds() * 1e3;
    }

    /** The additive estimate of a step in ms. */
    public double additiveItlMs() {
        return step.additiveSeconds() * 1e3;
    }
}
