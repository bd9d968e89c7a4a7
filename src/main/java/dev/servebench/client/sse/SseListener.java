package dev.servebench.client.sse;

/** Receives what {@link SseDecoder} finds; called on the decoding thread, in stream order. */
public interface SseListener {

    /**
     * One complete event's data (multi-line data already joined with {@code \n}). The bytes are only
     * valid during the call.
     */
    void onData(byte[] buffer, int offset, int length);

    /** A comment line ({@code : ping}); servers send them as keep-alives. */
    default void onComment() {}
}
