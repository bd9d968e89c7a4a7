package dev.servebench.load;

/**
 * The client itself failed during a load point (an {@link Error} such as OutOfMemoryError, or an unexpected
 * exception on one of its threads): nothing it measured afterwards could be trusted, so the run stops.
 */
public final class InternalRunError extends Exception {

    public InternalRunError(Throwable cause) {
        super(describe(cause), cause);
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        return "internal error in the client: " + cause.getClass().getSimpleName()
                + (message == null || message.isBlank() ? "" : ": " + message.lines().findFirst().orElse(""));
    }
}
