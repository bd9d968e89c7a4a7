package dev.servebench.perf;

import dev.servebench.load.InternalRunError;

/**
 * The client itself failed while measuring ({@link InternalRunError}: an {@link Error} such as
 * OutOfMemoryError, or an unexpected exception on one of its threads): nothing measured afterwards could be
 * trusted, so the run stops ({@code servebench run}: exit code 4). Unchecked so that a test engine or an A/B
 * round records it as the point's failure like any other.
 */
public final class ClientFailedException extends IllegalStateException {

    ClientFailedException(InternalRunError cause) {
        super(cause.getMessage(), cause);
    }
}
