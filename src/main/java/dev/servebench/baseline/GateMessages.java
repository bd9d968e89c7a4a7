package dev.servebench.baseline;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/** Renders a comparison ({@link GateOutcome}, {@link KernelOutcome}) as the one line a gate prints. */
final class GateMessages {

    private static final char MINUS = '\u2212';

    private GateMessages() {
    }

    /** The line of one comparison: {@code subject}'s two medians in {@code unit}, change, interval, test, verdict. */
    static String line(String subject, String unit, double baselineMedian, int baselineCount, double currentMedian,
            int currentCount, double relativeChange, Optional<ConfidenceInterval> interval, OptionalDouble pValue,
            String method, String test, double tolerance, double alpha, GateVerdict verdict) {
        StringBuilder line = new StringBuilder()
                .append(subject).append(": ")
                .append(value(baselineMedian)).append(" (n=").append(baselineCount).append(") \u2192 ")
                .append(value(currentMedian)).append(" (n=").append(currentCount).append(") ")
                .append(unit)
                .append(" (").append(percent(relativeChange));
        interval.ifPresent(ci -> line.append(", ").append(percent(ci.confidence(), false)).append(" CI ")
                .append(percent(ci.lower())).append(" \u2026 ").append(percent(ci.upper())));
        line.append("), ");
        switch (verdict) {
            case NOT_JUDGED, INSUFFICIENT_DATA -> line.append(method);
            case REGRESSION, IMPROVEMENT, NO_CHANGE -> {
                double p = pValue.orElseThrow();
                line.append(test).append(" p = ").append(probability(p))
                        .append(p < alpha ? " < " : " \u2265 ").append(probability(alpha))
                        .append(", tolerance ").append(percent(tolerance, false));
            }
        }
        return line.append(" \u2192 ").append(verdict).toString();
    }

    /** Four significant digits, no exponent: 612.3, 0.01234, 12350. */
    static String value(double v) {
        if (!Double.isFinite(v)) {
            return Double.isNaN(v) ? "n/a" : (v > 0 ? "\u221e" : MINUS + "\u221e");
        }
        return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString()
                .replace('-', MINUS);
    }

    /** Signed percentage with one decimal: +3.2 %, −11.8 %, −10.0 %. */
    static String percent(double fraction) {
        return percent(fraction, true);
    }

    /** A setting as a percentage: 5 %, 2.5 %. */
    static String setting(double fraction) {
        return percent(fraction, false);
    }

    private static String percent(double fraction, boolean signed) {
        if (Double.isNaN(fraction)) {
            return "n/a";
        }
        if (Double.isInfinite(fraction)) {
            return (fraction > 0 ? "+\u221e" : MINUS + "\u221e") + " %";
        }
        if (!signed) {
            return plain(fraction * 100) + " %"; // settings: 5 %, 95 %
        }
        // measurements: always one decimal, so a column of changes lines up
        return (fraction < 0 ? MINUS : '+') + String.format(Locale.ROOT, "%.1f", Math.abs(fraction) * 100) + " %";
    }

    /** Whole numbers without decimals (5), one decimal from 1 up (11.8), up to three below 1 (0.05). */
    private static String plain(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return stripZeros(String.format(Locale.ROOT, Math.abs(v) >= 1 ? "%.1f" : "%.3f", v));
    }

    private static String stripZeros(String s) {
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }

    static String probability(double p) {
        return p >= 0.001 || p == 0 ? stripZeros(String.format(Locale.ROOT, "%.3f", p))
                : String.format(Locale.ROOT, "%.1e", p);
    }
}
