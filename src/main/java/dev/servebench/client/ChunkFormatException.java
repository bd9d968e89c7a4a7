package dev.servebench.client;

/** A stream event that is not valid JSON or not the shape its endpoint defines. */
public final class ChunkFormatException extends Exception {
    public ChunkFormatException(String message) {
        super(message);
    }

    public ChunkFormatException(String message, Throwable cause) {
        super(message, cause);
    }
}
