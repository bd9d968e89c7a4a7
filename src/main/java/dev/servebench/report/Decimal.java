package dev.servebench.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Python-compatible number formatting: {@code format(x, '.2f')} rounds half-even on the exact binary value. */
final class Decimal {
    private Decimal() {}

    static String fixed(double value, int places) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return new BigDecimal(value).setScale(places, RoundingMode.HALF_EVEN).toPlainString();
    }
}
