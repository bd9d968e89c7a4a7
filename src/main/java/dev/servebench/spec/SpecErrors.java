package dev.servebench.spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Collects a spec's errors while the reader goes on to its other parts, so one run reports every
 * independent mistake. Readers still throw {@link SpecException} where a value is wrong; {@link #read}
 * draws the line around what that error stops: the value it was reading, not the whole spec.
 */
final class SpecErrors {

    private final List<SpecError> errors = new ArrayList<>();

    /** {@code reader}'s value, or empty with its errors recorded. */
    <T> Optional<T> read(Supplier<T> reader) {
        try {
            return Optional.of(reader.get());
        } catch (SpecException e) {
            errors.addAll(e.errors());
            return Optional.empty();
        }
    }

    /**
     * A section's value from a reader that records its independent errors itself and is then empty;
     * an error it throws (the section cannot be read at all) is recorded here.
     */
    <T> Optional<T> section(Supplier<Optional<T>> reader) {
        try {
            return reader.get();
        } catch (SpecException e) {
            errors.addAll(e.errors());
            return Optional.empty();
        }
    }

    void add(SpecException e) {
        errors.addAll(e.errors());
    }

    /** How many so far; a section compares counts to tell whether its own reads failed. */
    int count() {
        return errors.size();
    }

    /** Throws every error recorded so far as one exception. */
    void throwIfAny() {
        if (!errors.isEmpty()) {
            throw new SpecException(errors);
        }
    }
}
