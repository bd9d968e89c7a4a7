package dev.servebench.spec;

import java.util.Objects;
import java.util.Optional;

/**
 * Random prompts, SGLang semantics: input and output lengths uniform in {@code [max(int(L * rangeRatio), 1), L]}.
 *
 * @param tokenIds the ids token-id prompts are drawn from, when fixed; empty = learnt from the server
 */
public record RandomDatasetSpec(int inputLen, int outputLen, double rangeRatio, Optional<PromptTokenIds> tokenIds)
        implements DatasetSpec {

    /** {@code --random-range-ratio}'s default, so a spec and the CLI mean the same lengths. */
    public static final double DEFAULT_RANGE_RATIO = 0.0;

    public RandomDatasetSpec {
        if (inputLen < 1 || outputLen < 1) {
            throw new IllegalArgumentException("inputLen (" + inputLen + ") and outputLen (" + outputLen + ") must be >= 1");
        }
        if (!(rangeRatio >= 0 && rangeRatio <= 1)) {
            throw new IllegalArgumentException("rangeRatio (" + rangeRatio + ") must be in [0, 1]");
        }
        Objects.requireNonNull(tokenIds, "tokenIds");
    }

    /** Token ids learnt from the server. */
    public RandomDatasetSpec(int inputLen, int outputLen, double rangeRatio) {
        this(inputLen, outputLen, rangeRatio, Optional.empty());
    }

    @Override
    public String name() {
        return "random";
    }
}
