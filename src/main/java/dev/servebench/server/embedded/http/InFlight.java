package dev.servebench.server.embedded.http;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** The generations being answered, so that a server stop can end each of them with an error event. */
final class InFlight {

    private final Set<TokenStream> streams = ConcurrentHashMap.newKeySet();
    private final Object drained = new Object();
    private volatile boolean closing;

    /**
     * Registers before submitting. Adding first and reading {@link #closing} second (while {@link #abortAll}
     * writes it first and iterates second) means a stream is either seen by the stop or refused here.
     */
    void enter(TokenStream stream) {
        streams.add(stream);
        if (closing) {
            exit(stream);
            throw ApiException.unavailable("server is shutting down");
        }
    }

    void exit(TokenStream stream) {
        streams.remove(stream);
        synchronized (drained) {
            drained.notifyAll();
        }
    }

    boolean closing() {
        return closing;
    }

    void abortAll(String message) {
        closing = true;
        for (TokenStream stream : streams) {
            stream.abort(message);
        }
    }

    /** Waits until every handler has written its last event, or {@code limit}; true when drained. */
    boolean awaitEmpty(Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        synchronized (drained) {
            while (!streams.isEmpty()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                drained.wait(Math.max(1, left / 1_000_000));
            }
        }
        return true;
    }
}
