package dev.servebench.roofline;

import java.util.Objects;

/**
 * A hardware figure and where it comes from: a data sheet, a measurement and by whom, or "measured by the
 * kernel suite in this run". The value is in SI units (bytes/s, FLOP/s, seconds).
 */
public record Sourced(double value, String source) {

    public Sourced {
        Objects.requireNonNull(source, "source");
        if (source.isBlank()) {
            throw new IllegalArgumentException("a hardware figure needs its source (data sheet, measurement)");
        }
        if (!Double.isFinite(value) || value < 0) {
            throw new IllegalArgumentException("value must be finite and >= 0, got " + value + " (" + source + ")");
        }
    }

    public static Sourced of(double value, String source) {
        return new Sourced(value, source);
    }
}
