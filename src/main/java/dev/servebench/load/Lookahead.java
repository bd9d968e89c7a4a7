package dev.servebench.load;

import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestSource;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Serialises request bodies on its own thread a bounded window ahead of dispatch, so that memory holds a
 * window of bodies rather than the whole load point, and serialisation stays off the dispatching threads.
 * The first window is prepared before the load point's clock starts.
 *
 * <p>Requests are taken in about index order (the driver dispatches in index order; several threads may
 * interleave a few places). A request whose slot was already reused, or one asked for after the preparing
 * thread failed, is prepared on the spot: correct, only slower, and counted as dispatch lag.
 */
final class Lookahead implements AutoCloseable {

    private final RequestSource source;
    private final int window;
    private final AtomicReferenceArray<PreparedRequest> slots;
    private final AtomicLong taken = new AtomicLong();
    private final Thread producer;
    private volatile int produced;
    private volatile boolean stopped;

    /**
     * @param onError told about an error of the preparing thread (the run's internal-error slot)
     */
    Lookahead(RequestSource source, int window, Consumer<Throwable> onError) {
        this.source = source;
        this.window = Math.max(1, Math.min(window, source.size()));
        this.slots = new AtomicReferenceArray<>(this.window);
        for (int i = 0; i < this.window; i++) {
            slots.set(i, source.prepare(i));
        }
        produced = this.window;
        producer = Thread.ofPlatform().name("servebench-prepare").daemon(true).unstarted(() -> fill(onError));
        if (produced < source.size()) {
            producer.start();
        }
    }

    private void fill(Consumer<Throwable> onError) {
        try {
            for (int next = produced; next < source.size() && !stopped; next++) {
                while (next - taken.get() >= window && !stopped) {
                    LockSupport.parkNanos(50_000);
                }
                slots.set(next % window, source.prepare(next));
                produced = next + 1;
            }
        } catch (Throwable t) {
            // reported before waiting takers are released, so that whoever took a request after the failure
            // finds the error in the run's slot, not an empty one
            try {
                onError.accept(t);
            } finally {
                stopped = true;
            }
        }
    }

    /** Request {@code index}, waiting while the preparing thread has not reached it yet. */
    PreparedRequest take(int index) {
        for (int spins = 0; index >= produced && !stopped; spins++) {
            if (spins < 1_000) {
                Thread.onSpinWait();
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
        taken.incrementAndGet();
        PreparedRequest request = slots.getAndSet(index % window, null);
        if (request != null && request.index() == index) {
            return request;
        }
        if (request != null) {
            slots.compareAndSet(index % window, null, request); // another index's: leave it for its taker
        }
        return source.prepare(index);
    }

    @Override
    public void close() {
        stopped = true;
        producer.interrupt();
    }
}
