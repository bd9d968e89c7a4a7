package dev.servebench.spec;

import java.util.Objects;

/**
 * A spec file that cannot be used. The message is {@code file:line:column: problem}, where the problem says
 * what was found and what was expected, so the first line of a failed run points at the place to fix.
 * Unchecked: a bad spec is a user error reported once, not something callers recover from piecemeal.
 */
public final class SpecException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient SourcePosition position;
    private final String problem;

    public SpecException(SourcePosition position, String problem) {
        super(Objects.requireNonNull(position, "position") + ": " + Objects.requireNonNull(problem, "problem"));
        this.position = position;
        this.problem = problem;
    }

    public SourcePosition position() {
        return position;
    }

    /** The message without the leading position. */
    public String problem() {
        return problem;
    }
}
