package dev.servebench.spec;

import java.util.Objects;

/**
 * What each load point sends.
 *
 * @param seed      dataset and arrival seed
 * @param ignoreEos ask the server to generate exactly the requested output length
 */
public record WorkloadSpec(DatasetSpec dataset, PromptCount prompts, long seed, PromptFormat promptFormat,
                           boolean ignoreEos) {

    /** {@code servebench run}'s defaults. */
    public static final long DEFAULT_SEED = 42;
    public static final int DEFAULT_PROMPTS = 1000;

    public WorkloadSpec {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(prompts, "prompts");
        Objects.requireNonNull(promptFormat, "promptFormat");
    }
}
