package dev.servebench.server;

import java.io.IOException;
import java.util.Objects;

/** A server under test could not be brought to answer; the message says where, why and for how long it was tried. */
public final class ServerStartException extends IOException {

    /** Why the start failed. */
    public enum Reason {
        /** The program, image or engine could not be started at all. */
        LAUNCH_FAILED,
        /** The process or container ended before it answered. */
        EXITED,
        /** The server answered the readiness request with an error that waiting will not cure (401, 404, …). */
        REJECTED,
        /** No successful answer within the ready timeout. */
        TIMED_OUT
    }

    private final Reason reason;

    public ServerStartException(Reason reason, String message) {
        super(message);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public ServerStartException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    public Reason reason() {
        return reason;
    }
}
