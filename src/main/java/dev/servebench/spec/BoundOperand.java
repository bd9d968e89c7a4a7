package dev.servebench.spec;

import dev.servebench.metric.Unit;
import dev.servebench.roofline.DecodeBound;
import java.util.Arrays;
import java.util.Optional;

/**
 * A speed-of-light bound an expectation may name on its right-hand side, e.g.
 * {@code output_throughput >= 0.25 x roofline_output_throughput @ concurrency=1} (docs/roofline.md).
 */
public enum BoundOperand {
    /** B / step lower bound: output tok/s no engine can beat at the point's batch and context. */
    ROOFLINE_OUTPUT_THROUGHPUT("roofline_output_throughput", Unit.TOKENS_PER_SECOND),
    /** The step lower bound in ms: no stream sees its tokens closer together. */
    MIN_ITL_MS("min_itl_ms", Unit.MILLISECONDS);

    private final String id;
    private final Unit unit;

    BoundOperand(String id, Unit unit) {
        this.id = id;
        this.unit = unit;
    }

    public String id() {
        return id;
    }

    public Unit unit() {
        return unit;
    }

    public double value(DecodeBound bound) {
        return switch (this) {
            case ROOFLINE_OUTPUT_THROUGHPUT -> bound.rooflineOutputThroughput();
            case MIN_ITL_MS -> bound.minItlMs();
        };
    }

    static Optional<BoundOperand> find(String id) {
        return Arrays.stream(values()).filter(b -> b.id.equals(id)).findFirst();
    }
}
