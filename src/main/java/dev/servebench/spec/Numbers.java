package dev.servebench.spec;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** How measured values appear in verdicts: four decimals at most, no trailing zeros. */
final class Numbers {

    private Numbers() {
    }

    static String measured(double value) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "NaN" : Values.plain(value);
        }
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }
}
