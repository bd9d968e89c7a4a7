package dev.servebench.spec;

import java.util.Comparator;
import java.util.Objects;

/**
 * One thing wrong with a spec: where, and what was found and expected. A {@link SpecException} carries
 * one or more of them, in file order.
 *
 * @param position where the problem is
 * @param problem  what was found and what was expected, without the position
 */
public record SpecError(SourcePosition position, String problem) {

    /** Line, then column: the order an editor's error list shows them in. */
    static final Comparator<SpecError> FILE_ORDER = Comparator.comparingInt((SpecError e) -> e.position().line())
            .thenComparingInt(e -> e.position().column());

    public SpecError {
        Objects.requireNonNull(position, "position");
        Objects.requireNonNull(problem, "problem");
    }

    /** {@code file:line:column: problem}. */
    @Override
    public String toString() {
        return position + ": " + problem;
    }
}
