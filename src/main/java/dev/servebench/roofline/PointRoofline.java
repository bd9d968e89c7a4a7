package dev.servebench.roofline;

import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A measured load point against its bound: the bound (or why there is none) and the measured values as
 * fractions of it. A fraction is empty when its measurement is absent or not a usable number, never guessed.
 *
 * @param outputThroughputOfRoofline measured output tok/s ÷ roofline output tok/s
 * @param itlOfBound                 min ITL ÷ measured mean ITL
 */
public record PointRoofline(PointBound bound, OptionalDouble outputThroughputOfRoofline, OptionalDouble itlOfBound) {

    public PointRoofline {
        Objects.requireNonNull(bound, "bound");
        Objects.requireNonNull(outputThroughputOfRoofline, "outputThroughputOfRoofline");
        Objects.requireNonNull(itlOfBound, "itlOfBound");
        if (bound instanceof PointBound.Unbounded && (outputThroughputOfRoofline.isPresent() || itlOfBound.isPresent())) {
            throw new IllegalArgumentException("no fractions without a bound");
        }
    }

    public static PointRoofline of(PointBound bound, OptionalDouble measuredOutputTokPerS, OptionalDouble measuredMeanItlMs) {
        return switch (bound) {
            case PointBound.Bounded b -> new PointRoofline(b, b.outputThroughputOfRoofline(measuredOutputTokPerS),
                    b.itlOfBound(measuredMeanItlMs));
            case PointBound.Unbounded u -> new PointRoofline(u, OptionalDouble.empty(), OptionalDouble.empty());
        };
    }

    /** One line for a console: the bound, its limiting term, and the fractions; or why there is no bound. */
    public String describe() {
        return switch (bound) {
            case PointBound.Bounded b -> String.format(Locale.ROOT,
                    "bound %s output tok/s, min ITL %s ms (batch %d, context %d), limited by %s; %s, %s",
                    RooflineTable.fmt(b.decode().rooflineOutputThroughput()), RooflineTable.fmt(b.decode().minItlMs()),
                    b.decode().batch(), b.decode().context(), b.decode().limitingTerm().name().toLowerCase(Locale.ROOT),
                    outputThroughputOfRoofline.isPresent() ? "output throughput " + percent(outputThroughputOfRoofline)
                            + " of the bound" : "output throughput not measured",
                    itlOfBound.isPresent() ? "min ITL " + percent(itlOfBound) + " of the mean ITL"
                            : "mean ITL not measured");
            case PointBound.Unbounded u -> "no bound: " + u.reason();
        };
    }

    /** A share as a percentage with two significant figures at least; "not measured" when absent. */
    public static String percent(OptionalDouble share) {
        if (share.isEmpty()) return "not measured";
        double p = share.getAsDouble() * 100;
        return String.format(Locale.ROOT, p >= 10 ? "%.0f %%" : p >= 1 ? "%.1f %%" : "%.2f %%", p);
    }
}
