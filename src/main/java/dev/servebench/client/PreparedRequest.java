package dev.servebench.client;

import java.util.Objects;

/**
 * A request ready to send: its JSON body is serialised before the run so that no serialisation happens on
 * the measured path.
 *
 * @param index              dispatch index within the load point
 * @param body               UTF-8 JSON request body (not copied; must not be modified)
 * @param promptLen          the dataset's prompt length in tokens
 * @param requestedOutputLen max tokens requested
 */
public record PreparedRequest(int index, byte[] body, int promptLen, int requestedOutputLen) {
    public PreparedRequest {
        if (index < 0) {
            throw new IllegalArgumentException("index (" + index + ") must be >= 0");
        }
        Objects.requireNonNull(body, "body");
        if (promptLen < 0 || requestedOutputLen < 0) {
            throw new IllegalArgumentException("promptLen (" + promptLen + ") and requestedOutputLen ("
                    + requestedOutputLen + ") must be >= 0");
        }
    }
}
