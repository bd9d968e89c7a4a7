package dev.servebench.load;

import dev.servebench.record.ErrorLine;

/**
 * The client itself failed during a load point (an {@link Error} such as OutOfMemoryError, or an unexpected
 * exception on one of its threads): nothing it measured afterwards could be trusted, so the run stops.
 */
public final class InternalRunError extends Exception {

    public InternalRunError(Throwable cause) {
        super("internal error in the client: " + ErrorLine.of(cause), cause);
    }
}
