package dev.servebench.metric;

import java.math.BigDecimal;

/**
 * A numpy statistic applied to a {@link LatencySeries}; see {@link NumpyStats} for the exact semantics. A
 * percentile may be of any rank in (0, 100), so a new tail metric (p99.9) is one {@link MetricId} constant:
 * {@code percentile(99.9)} has the id prefix {@code p999}.
 *
 * @param rank the percentile's rank for {@link Kind#PERCENTILE}, NaN for every other kind
 */
public record Statistic(Kind kind, double rank) {

    /** The numpy function behind a statistic. */
    public enum Kind {
        MEAN, MEDIAN, STD, PERCENTILE, MAX
    }

    public static final Statistic MEAN = new Statistic(Kind.MEAN, Double.NaN);
    public static final Statistic MEDIAN = new Statistic(Kind.MEDIAN, Double.NaN);
    public static final Statistic STD = new Statistic(Kind.STD, Double.NaN);
    public static final Statistic P90 = percentile(90);
    public static final Statistic P95 = percentile(95);
    public static final Statistic P99 = percentile(99);
    public static final Statistic MAX = new Statistic(Kind.MAX, Double.NaN);

    public Statistic {
        if (kind == null) {
            throw new IllegalArgumentException("a statistic needs a kind");
        }
        if (kind == Kind.PERCENTILE && !(rank > 0 && rank < 100)) {
            throw new IllegalArgumentException("percentile rank " + rank + " must be in (0, 100)");
        }
        if (kind != Kind.PERCENTILE && !Double.isNaN(rank)) {
            throw new IllegalArgumentException(kind + " takes no rank (got " + rank + ")");
        }
    }

    /** numpy's linear percentile at {@code rank} (99.9 for p99.9). */
    public static Statistic percentile(double rank) {
        return new Statistic(Kind.PERCENTILE, rank);
    }

    /** The id prefix both tools use: {@code mean}, {@code p99}, ...; {@code p999} for p99.9. */
    public String idPrefix() {
        return switch (kind) {
            case MEAN -> "mean";
            case MEDIAN -> "median";
            case STD -> "std";
            case PERCENTILE -> "p" + rankText().replace(".", "");
            case MAX -> "max";
        };
    }

    /** Word the consoles print before the series name ("Mean", "P99"). */
    String labelWord() {
        return switch (kind) {
            case MEAN -> "Mean";
            case MEDIAN -> "Median";
            case STD -> "Std";
            case PERCENTILE -> "P" + rankText();
            case MAX -> "Max";
        };
    }

    String formulaName() {
        return switch (kind) {
            case MEAN -> "mean";
            case MEDIAN -> "median";
            case STD -> "std (ddof 0)";
            case PERCENTILE -> "p" + rankText() + " (linear)";
            case MAX -> "max";
        };
    }

    double apply(Sample sample) {
        return switch (kind) {
            case MEAN -> sample.mean();
            case MEDIAN -> sample.median();
            case STD -> sample.std();
            case PERCENTILE -> sample.percentile(rank);
            case MAX -> sample.max();
        };
    }

    @Override
    public String toString() {
        return idPrefix();
    }

    private String rankText() {
        return BigDecimal.valueOf(rank).stripTrailingZeros().toPlainString();
    }
}
