package dev.servebench.metric;

import java.util.OptionalDouble;

/**
 * vLLM's {@code --goodput} service-level objectives in milliseconds. A request is good when every given
 * objective holds inclusively ({@code slo_ms / 1000 >= value_s}); at least one objective must be given,
 * as vLLM reports no goodput for an empty set.
 *
 * @param ttftMs bound on vLLM's TTFT
 * @param tpotMs bound on vLLM's TPOT, 0.0 for requests with at most one output token
 * @param e2elMs bound on vLLM's end-to-end latency
 */
public record GoodputSlo(OptionalDouble ttftMs, OptionalDouble tpotMs, OptionalDouble e2elMs) {

    public GoodputSlo {
        check("ttftMs", ttftMs);
        check("tpotMs", tpotMs);
        check("e2elMs", e2elMs);
        if (ttftMs.isEmpty() && tpotMs.isEmpty() && e2elMs.isEmpty()) {
            throw new IllegalArgumentException("ttftMs, tpotMs and e2elMs are all empty; give at least one objective");
        }
    }

    public static GoodputSlo ofTtftMs(double ms) {
        return new GoodputSlo(OptionalDouble.of(ms), OptionalDouble.empty(), OptionalDouble.empty());
    }

    public static GoodputSlo ofTpotMs(double ms) {
        return new GoodputSlo(OptionalDouble.empty(), OptionalDouble.of(ms), OptionalDouble.empty());
    }

    public static GoodputSlo ofE2elMs(double ms) {
        return new GoodputSlo(OptionalDouble.empty(), OptionalDouble.empty(), OptionalDouble.of(ms));
    }

    public GoodputSlo withTtftMs(double ms) {
        return new GoodputSlo(OptionalDouble.of(ms), tpotMs, e2elMs);
    }

    public GoodputSlo withTpotMs(double ms) {
        return new GoodputSlo(ttftMs, OptionalDouble.of(ms), e2elMs);
    }

    public GoodputSlo withE2elMs(double ms) {
        return new GoodputSlo(ttftMs, tpotMs, OptionalDouble.of(ms));
    }

    /** Whether one request meets every given objective; arguments in seconds, as vLLM compares them. */
    boolean isGood(double ttftSeconds, double tpotSeconds, double e2elSeconds) {
        return holds(ttftMs, ttftSeconds) && holds(tpotMs, tpotSeconds) && holds(e2elMs, e2elSeconds);
    }

    private static boolean holds(OptionalDouble sloMs, double valueSeconds) {
        // vLLM divides by 1000 (MILLISECONDS_TO_SECONDS_CONVERSION); multiplying by 0.001 can round differently.
        return sloMs.isEmpty() || sloMs.getAsDouble() / 1000 >= valueSeconds;
    }

    private static void check(String field, OptionalDouble value) {
        if (value == null) {
            throw new NullPointerException(field);
        }
        if (value.isPresent() && !(value.getAsDouble() >= 0 && Double.isFinite(value.getAsDouble()))) {
            throw new IllegalArgumentException(field + " (" + value.getAsDouble() + ") must be a finite value >= 0");
        }
    }
}
