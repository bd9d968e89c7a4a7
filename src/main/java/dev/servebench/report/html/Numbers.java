package dev.servebench.report.html;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Numbers as the page shows and inlines them. */
final class Numbers {

    /** Four significant digits: finer than run-to-run noise, short in labels and in the inlined data. */
    private static final MathContext INLINED = new MathContext(4);

    private Numbers() {
    }

    /** The value to inline in chart data; null (a gap) when it is not finite. */
    static Double inlined(double value) {
        if (!Double.isFinite(value)) {
            return null;
        }
        return new BigDecimal(value).round(INLINED).doubleValue();
    }

    /** For tables and labels: 3740, 62.2, 1.25, 0.0312. */
    static String text(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        double magnitude = Math.abs(value);
        String format = magnitude >= 100 || value == Math.rint(value) ? "%.0f"
                : magnitude >= 10 ? "%.1f" : magnitude >= 1 ? "%.2f" : "%.3g";
        return String.format(Locale.ROOT, format, value);
    }

    /** A ratio as {@code 1.23×}. */
    static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f×", value);
    }

    /** A relative change as {@code +20.0 %}. */
    static String percentChange(double relative) {
        return String.format(Locale.ROOT, "%+.1f %%", relative * 100);
    }
}
