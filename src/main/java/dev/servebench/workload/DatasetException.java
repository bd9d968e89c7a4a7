package dev.servebench.workload;

import java.nio.file.Path;

/** A dataset file could not be read or does not have the expected shape; the message says where and why. */
public final class DatasetException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;

    public DatasetException(Path file, String message, Throwable cause) {
        super(file + ": " + message, cause);
        this.file = file;
    }

    public Path file() {
        return file;
    }
}
