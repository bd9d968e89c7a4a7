package dev.servebench.perf;

import java.util.Objects;
import java.util.Optional;

/**
 * What a runner's caller adds to a spec that is not part of the measurement.
 *
 * @param tag      the summaries' {@code tag}; empty = {@code spec:<name>}
 * @param listener told about progress, warnings and each measured repeat
 */
public record RunOptions(Optional<String> tag, RunListener listener) {

    public static final RunOptions DEFAULTS = new RunOptions(Optional.empty(), RunListener.NONE);

    public RunOptions {
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(listener, "listener");
    }
}
