package dev.servebench.roofline;

/** Measured values as fractions of their bounds: 1 is the speed of light, 0.1 is ten times slower. */
public final class Roofline {

    private Roofline() {
    }

    /** measured output tok/s ÷ roofline output tok/s of the same batch and context. */
    public static double outputThroughputOfRoofline(double measuredOutputTokPerS, DecodeBound bound) {
        if (!(Double.isFinite(measuredOutputTokPerS) && measuredOutputTokPerS >= 0)) {
            throw new IllegalArgumentException("measured output throughput must be finite and >= 0 tok/s, got "
                    + measuredOutputTokPerS);
        }
        return measuredOutputTokPerS / bound.rooflineOutputThroughput();
    }

    /** minimum ITL ÷ measured ITL (both ms): the share of the measured gap between tokens that the hardware needs. */
    public static double itlOfBound(double measuredItlMs, DecodeBound bound) {
        if (!(Double.isFinite(measuredItlMs) && measuredItlMs > 0)) {
            throw new IllegalArgumentException("measured ITL must be finite and > 0 ms, got " + measuredItlMs);
        }
        return bound.minItlMs() / measuredItlMs;
    }

    /** minimum TTFT ÷ measured TTFT (both ms). */
    public static double ttftOfBound(double measuredTtftMs, PrefillBound bound) {
        if (!(Double.isFinite(measuredTtftMs) && measuredTtftMs > 0)) {
            throw new IllegalArgumentException("measured TTFT must be finite and > 0 ms, got " + measuredTtftMs);
        }
        return bound.minTtftMs() / measuredTtftMs;
    }
}
