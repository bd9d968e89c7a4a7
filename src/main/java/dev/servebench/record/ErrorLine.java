package dev.servebench.record;

/** An error as one line for a user or a failure reason: its class and the first line of its message. */
public final class ErrorLine {

    private ErrorLine() {}

    /** {@code OutOfMemoryError: Java heap space}; the class name alone when there is no message. */
    public static String of(Throwable error) {
        String message = error.getMessage();
        return error.getClass().getSimpleName() + (message == null || message.isBlank() ? ""
                : ": " + message.lines().findFirst().orElse(""));
    }
}
