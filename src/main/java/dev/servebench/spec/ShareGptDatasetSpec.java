package dev.servebench.spec;

import java.nio.file.Path;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * Conversations from a ShareGPT JSON file.
 *
 * @param path      the file, resolved against the spec's directory
 * @param outputLen a fixed output length for every row ({@code --sharegpt-output-len}); empty = each row's own
 */
public record ShareGptDatasetSpec(Path path, OptionalInt outputLen) implements DatasetSpec {

    public ShareGptDatasetSpec {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(outputLen, "outputLen");
        if (outputLen.isPresent() && outputLen.getAsInt() < 1) {
            throw new IllegalArgumentException("outputLen (" + outputLen.getAsInt() + ") must be >= 1");
        }
    }

    @Override
    public String name() {
        return "sharegpt";
    }
}
