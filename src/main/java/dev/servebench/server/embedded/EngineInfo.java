package dev.servebench.server.embedded;

import java.util.Objects;

/**
 * What the engine serves.
 *
 * @param modelName       id reported by /v1/models
 * @param slots           sequences decoded together (continuous batching width)
 * @param contextPerSlot  prompt tokens (incl. BOS) + generated tokens one request may use
 * @param vocabSize       vocabulary size
 */
public record EngineInfo(String modelName, int slots, int contextPerSlot, int vocabSize) {
    public EngineInfo {
        Objects.requireNonNull(modelName, "modelName");
        if (slots < 1 || contextPerSlot < 2 || vocabSize < 1) {
            throw new IllegalArgumentException("slots (" + slots + "), contextPerSlot (" + contextPerSlot
                    + ") and vocabSize (" + vocabSize + ") must be >= 1, >= 2 and >= 1");
        }
    }
}
