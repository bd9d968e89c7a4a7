package dev.servebench.spec;

import java.util.List;
import java.util.Objects;

/**
 * A spec file that cannot be used. With one error the message is {@code file:line:column: problem}, where
 * the problem says what was found and what was expected, so the first line of a failed run points at the
 * place to fix. With several it is {@code file: N errors} and then one such line per error, in file order:
 * fixing a spec takes one run, not one run per mistake.
 * Unchecked: a bad spec is a user error reported once, not something callers recover from piecemeal.
 */
public final class SpecException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient List<SpecError> errors;

    public SpecException(SourcePosition position, String problem) {
        this(List.of(new SpecError(position, problem)));
    }

    /** @param errors at least one; sorted into file order, repeats dropped */
    public SpecException(List<SpecError> errors) {
        super(message(inFileOrder(errors)));
        this.errors = inFileOrder(errors);
    }

    private static List<SpecError> inFileOrder(List<SpecError> errors) {
        Objects.requireNonNull(errors, "errors");
        if (errors.isEmpty()) {
            throw new IllegalArgumentException("a SpecException needs at least one error");
        }
        // Stable: two errors at one place keep the order the reader found them in.
        return errors.stream().distinct().sorted(SpecError.FILE_ORDER).toList();
    }

    private static String message(List<SpecError> errors) {
        if (errors.size() == 1) {
            return errors.getFirst().toString();
        }
        StringBuilder message = new StringBuilder(errors.getFirst().position().file() + ": " + errors.size() + " errors");
        for (SpecError error : errors) {
            message.append('\n').append(error);
        }
        return message.toString();
    }

    /** Every error, in file order; one for most callers. */
    public List<SpecError> errors() {
        return errors;
    }

    /** Where the first error (in file order) is. */
    public SourcePosition position() {
        return errors.getFirst().position();
    }

    /** The first error's problem, without its position. */
    public String problem() {
        return errors.getFirst().problem();
    }
}
