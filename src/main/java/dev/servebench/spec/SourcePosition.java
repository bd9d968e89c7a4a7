package dev.servebench.spec;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A place in a spec file, 1-based like editors and compilers count, so {@code toString()} can be pasted
 * into an editor's "go to" box and is what every {@link SpecException} message starts with.
 *
 * @param file   the spec file as it was named to the reader
 * @param line   1-based line
 * @param column 1-based column, in code points
 */
public record SourcePosition(Path file, int line, int column) {

    public SourcePosition {
        Objects.requireNonNull(file, "file");
        if (line < 1 || column < 1) {
            throw new IllegalArgumentException("line (" + line + ") and column (" + column + ") must be >= 1");
        }
    }

    /** The same line, {@code codePoints} further right. */
    SourcePosition shiftedRight(int codePoints) {
        return new SourcePosition(file, line, column + codePoints);
    }

    /** {@code file:line:column}. */
    @Override
    public String toString() {
        return file + ":" + line + ":" + column;
    }
}
