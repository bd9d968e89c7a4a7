package dev.servebench.workload;

import java.util.List;

/** A source of benchmark prompts (docs/reference-semantics.md, Datasets). */
public sealed interface Dataset permits RandomDataset, ShareGptDataset {

    /**
     * The rows, indexed 0.. in dispatch order. The same seed gives the same rows; each dataset draws from
     * its own generator, seeded from {@code seed} but independent of the arrival plan's.
     *
     * @throws DatasetException when a dataset file cannot be read or is malformed
     */
    List<PromptRequest> requests(long seed);
}
