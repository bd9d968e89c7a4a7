package dev.servebench.server.embedded.http;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Bounds how long a handler may block reading its request body. Helidon 4.5 applies no read timeout to
 * accepted sockets ({@code SocketOptions.readTimeout} is only used for outgoing connections, and its idle
 * sweeper leaves a body read alone), so a client that declares a body and stalls would hold its connection
 * forever. The deadline interrupts the handler: a virtual thread interrupted in a socket read closes the
 * socket, which ends the read at once.
 */
final class ReadDeadline implements AutoCloseable {

    /** Thrown instead of the read's own exception when the deadline cut it. */
    static final class Expired extends RuntimeException {
        Expired(Duration limit) {
            super("request body not received within " + limit.toMillis() + " ms (readTimeout)", null, false, false);
        }
    }

    interface Read<T> {
        T run();
    }

    private final Duration limit;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("servebench-read-deadline").daemon().factory());

    ReadDeadline(Duration limit) {
        this.limit = limit;
    }

    /** Runs {@code read} on the calling thread, interrupting it after the limit. */
    <T> T run(Read<T> read) {
        Thread reader = Thread.currentThread();
        Object lock = new Object();
        boolean[] state = new boolean[2]; // [0] read finished, [1] deadline fired
        ScheduledFuture<?> alarm = timer.schedule(() -> {
            synchronized (lock) {
                if (!state[0]) {
                    state[1] = true;
                    reader.interrupt();
                }
            }
        }, limit.toNanos(), TimeUnit.NANOSECONDS);
        try {
            return read.run();
        } catch (RuntimeException e) {
            synchronized (lock) {
                if (state[1]) {
                    throw new Expired(limit);
                }
            }
            throw e;
        } finally {
            alarm.cancel(false);
            boolean fired;
            synchronized (lock) {
                state[0] = true;
                fired = state[1];
            }
            if (fired) {
                Thread.interrupted(); // the interrupt was meant for the read only; it is over
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
