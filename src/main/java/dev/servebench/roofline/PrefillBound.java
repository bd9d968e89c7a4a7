package dev.servebench.roofline;

import java.util.Objects;

/**
 * Prefill of R prompts of P tokens in one step: the lower bound of time to first token when nothing else
 * shares the GPUs. FLOPs 2 × active × R·P + causal attention 4 × R·P(P+1)/2 × layers × width; weights read
 * once with the distinct-expert expectation for R·P tokens; KV written R·P × KV bytes; 2 allreduces per layer
 * of R·P × hidden × 2 bytes.
 */
public record PrefillBound(ModelShape model, HardwareShape hardware, int requests, int promptTokens, StepCost step) {

    public PrefillBound {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(hardware, "hardware");
        Objects.requireNonNull(step, "step");
    }

    public static PrefillBound of(ModelShape model, HardwareShape hardware, int requests, int promptTokens) {
        if (requests < 1) throw new IllegalArgumentException("requests must be >= 1, got " + requests);
        if (promptTokens < 1) throw new IllegalArgumentException("promptTokens must be >= 1, got " + promptTokens);
        double tokens = (double) requests * promptTokens;
        double pairs = requests * (double) promptTokens * (promptTokens + 1) / 2;
        StepCost step = StepCost.of(model, hardware, tokens, pairs, tokens * model.kvBytesPerToken());
        return new PrefillBound(model, hardware, requests, promptTokens, step);
    }

    /** The lower bound of TTFT in ms (the step's max term), ignoring queueing, sampling and the network. */
    public double minTtftMs() {
        return step.lowerBoundSeconds() * 1e3;
    }

    public double additiveTtftMs() {
        return step.additiveSeconds() * 1e3;
    }

    public LimitingTerm limitingTerm() {
        return step.limitingTerm();
    }
}
