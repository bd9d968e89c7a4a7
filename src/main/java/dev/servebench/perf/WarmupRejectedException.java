package dev.servebench.perf;

/**
 * The server rejected a warm-up request (4xx): every measured request would be rejected the same way, so
 * the run stops at once with the server's message ({@code servebench run}: exit code 2).
 */
public final class WarmupRejectedException extends IllegalStateException {

    WarmupRejectedException(String message) {
        super(message);
    }
}
