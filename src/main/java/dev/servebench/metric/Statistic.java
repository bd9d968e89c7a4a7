package dev.servebench.metric;

/** A numpy statistic applied to a {@link LatencySeries}; see {@link NumpyStats} for the exact semantics. */
public enum Statistic {
    MEAN("mean", "Mean", "mean"),
    MEDIAN("median", "Median", "median"),
    STD("std", null, "std (ddof 0)"),
    P90("p90", "P90", "p90 (linear)"),
    P95("p95", "P95", "p95 (linear)"),
    P99("p99", "P99", "p99 (linear)"),
    MAX("max", "Max", "max");

    private final String idPrefix;
    private final String labelWord;
    private final String formulaName;

    Statistic(String idPrefix, String labelWord, String formulaName) {
        this.idPrefix = idPrefix;
        this.labelWord = labelWord;
        this.formulaName = formulaName;
    }

    /** The id prefix both tools use: {@code mean}, {@code p99}, ... */
    public String idPrefix() {
        return idPrefix;
    }

    /** Word the consoles print before the series name ("Mean", "P99"); null for std, which neither prints. */
    String labelWord() {
        return labelWord;
    }

    String formulaName() {
        return formulaName;
    }

    double apply(Sample sample) {
        return switch (this) {
            case MEAN -> sample.mean();
            case MEDIAN -> sample.median();
            case STD -> sample.std();
            case P90 -> sample.percentile(90);
            case P95 -> sample.percentile(95);
            case P99 -> sample.percentile(99);
            case MAX -> sample.max();
        };
    }
}
