package dev.servebench.spec;

/**
 * Random prompts, SGLang semantics: input and output lengths uniform in {@code [max(int(L * rangeRatio), 1), L]}.
 */
public record RandomDatasetSpec(int inputLen, int outputLen, double rangeRatio) implements DatasetSpec {

    /** {@code --random-range-ratio}'s default, so a spec and the CLI mean the same lengths. */
    public static final double DEFAULT_RANGE_RATIO = 0.0;

    public RandomDatasetSpec {
        if (inputLen < 1 || outputLen < 1) {
            throw new IllegalArgumentException("inputLen (" + inputLen + ") and outputLen (" + outputLen + ") must be >= 1");
        }
        if (!(rangeRatio >= 0 && rangeRatio <= 1)) {
            throw new IllegalArgumentException("rangeRatio (" + rangeRatio + ") must be in [0, 1]");
        }
    }

    @Override
    public String name() {
        return "random";
    }
}
