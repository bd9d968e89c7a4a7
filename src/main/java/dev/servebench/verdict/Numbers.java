package dev.servebench.verdict;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** How measured values appear in verdicts: four decimals at most, no trailing zeros. */
final class Numbers {

    private Numbers() {
    }

    static String measured(double value) {
        if (Double.isNaN(value)) {
            return "NaN";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "+∞" : "-∞";
        }
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }
}
