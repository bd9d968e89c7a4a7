package dev.servebench.spec;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * What each load point sends.
 *
 * @param seed      dataset and arrival seed
 * @param ignoreEos ask the server to generate exactly the requested output length
 * @param tokenizer a HuggingFace tokenizer.json (or a model directory holding one) for exact text prompt
 *                  lengths, as {@code servebench run --tokenizer}; empty: text lengths are estimates
 * @param extraBody a JSON object merged into every request body ({@code --extra-request-body}); empty = none.
 *                  Held as a copy and handed out as one, so the spec stays a value
 */
public record WorkloadSpec(DatasetSpec dataset, PromptCount prompts, long seed, PromptFormat promptFormat,
                           boolean ignoreEos, Optional<Path> tokenizer, ObjectNode extraBody) {

    /** {@code servebench run}'s defaults. */
    public static final long DEFAULT_SEED = 42;
    public static final int DEFAULT_PROMPTS = 1000;

    public WorkloadSpec {
        Objects.requireNonNull(dataset, "dataset");
        Objects.requireNonNull(prompts, "prompts");
        Objects.requireNonNull(promptFormat, "promptFormat");
        Objects.requireNonNull(tokenizer, "tokenizer");
        extraBody = Objects.requireNonNull(extraBody, "extraBody").deepCopy();
    }

    /** Without an extra request body. */
    public WorkloadSpec(DatasetSpec dataset, PromptCount prompts, long seed, PromptFormat promptFormat,
                        boolean ignoreEos, Optional<Path> tokenizer) {
        this(dataset, prompts, seed, promptFormat, ignoreEos, tokenizer, JsonNodeFactory.instance.objectNode());
    }

    @Override
    public ObjectNode extraBody() {
        return extraBody.deepCopy();
    }

    /** Without a tokenizer. */
    public WorkloadSpec(DatasetSpec dataset, PromptCount prompts, long seed, PromptFormat promptFormat,
                        boolean ignoreEos) {
        this(dataset, prompts, seed, promptFormat, ignoreEos, Optional.empty());
    }
}
