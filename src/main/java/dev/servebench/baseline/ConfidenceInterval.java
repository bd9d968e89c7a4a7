package dev.servebench.baseline;

/**
 * An interval estimate: of a relative change in the gates (fractions: -0.05 = 5 % lower), of a kernel figure or
 * of a ratio of two kernel figures in their own scale ({@link KernelIntervals}).
 *
 * @param lower      lower bound
 * @param upper      upper bound, >= lower
 * @param confidence nominal coverage in (0, 1), e.g. 0.95
 */
public record ConfidenceInterval(double lower, double upper, double confidence) {

    public ConfidenceInterval {
        if (Double.isNaN(lower) || Double.isNaN(upper) || lower > upper) {
            throw new IllegalArgumentException("interval [" + lower + ", " + upper + "] must be ordered and not NaN");
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new IllegalArgumentException("confidence (" + confidence + ") must be in (0, 1)");
        }
    }

    /** Whether every value of the interval is below zero. */
    public boolean entirelyBelowZero() {
        return upper < 0;
    }

    /** Whether every value of the interval is above zero. */
    public boolean entirelyAboveZero() {
        return lower > 0;
    }
}
