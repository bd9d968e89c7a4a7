package dev.servebench.spec;

import java.util.Arrays;
import java.util.Optional;

/**
 * How a measured value is held against its limit: the only place values are compared. A NaN on either side
 * never satisfies one; verdicts do not rely on that and never compare a value that is not finite
 * ({@code dev.servebench.verdict.Judge}).
 */
public enum Comparison {
    AT_LEAST(">=", "≥"),
    AT_MOST("<=", "≤"),
    GREATER_THAN(">", ">"),
    LESS_THAN("<", "<");

    private final String ascii;
    private final String symbol;

    Comparison(String ascii, String symbol) {
        this.ascii = ascii;
        this.symbol = symbol;
    }

    /** As shown in test names: ≥ ≤ > <. */
    public String symbol() {
        return symbol;
    }

    /** Whether {@code measured CMP limit} holds. */
    public boolean test(double measured, double limit) {
        return switch (this) {
            case AT_LEAST -> measured >= limit;
            case AT_MOST -> measured <= limit;
            case GREATER_THAN -> measured > limit;
            case LESS_THAN -> measured < limit;
        };
    }

    /** {@code >=}, {@code ≥}, {@code <=}, {@code ≤}, {@code >} or {@code <}. */
    public static Optional<Comparison> parse(String text) {
        return Arrays.stream(values()).filter(c -> c.ascii.equals(text) || c.symbol.equals(text)).findFirst();
    }
}
