package dev.servebench.spec;

/** Where prompts come from, with the same names and semantics as {@code --dataset-name}. */
public sealed interface DatasetSpec permits RandomDatasetSpec, ShareGptDatasetSpec {

    /** {@code random} or {@code sharegpt}. */
    String name();
}
