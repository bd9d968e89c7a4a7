package dev.servebench.roofline;

import java.util.Objects;

/**
 * One hardware figure as a spec states it: a value with its source (data sheet, someone's measurement), or
 * {@code measured}: taken from the kernel suite's results of the same run, so a runner's own figures are
 * used where they exist.
 */
public sealed interface HardwareFigure permits HardwareFigure.Given, HardwareFigure.Measured {

    /** A value in SI units (bytes/s, FLOP/s, seconds) with where it comes from. */
    record Given(Sourced figure) implements HardwareFigure {
        public Given {
            Objects.requireNonNull(figure, "figure");
        }
    }

    /** Taken from {@link MeasuredHardware} when the bound is computed. */
    record Measured() implements HardwareFigure {
    }

    static HardwareFigure given(double value, String source) {
        return new Given(Sourced.of(value, source));
    }

    static HardwareFigure measured() {
        return new Measured();
    }
}
