package dev.servebench.testserver;

import io.netty.channel.SelectStrategy;
import io.netty.util.IntSupplier;
import java.util.PriorityQueue;

/**
 * Lets an event loop busy-poll (selectNow) during the short window before a paced emission is due, and block
 * in select otherwise. Needed because a timed NIO select sleeps in whole milliseconds (Netty rounds up), and a
 * wake-up from idle on a shared VM is often a further millisecond late; both would show up as chunk jitter.
 * Polling, rather than spinning inside a task, keeps the loop reading requests, so arrival times stay exact.
 *
 * <p>One instance per event loop, used only on that loop's thread; {@link #current()} finds it from a task.
 */
final class PacingSelectStrategy implements SelectStrategy {

    private static final ThreadLocal<PacingSelectStrategy> CURRENT = new ThreadLocal<>();

    private final long spinNanos;
    private final PriorityQueue<Long> deadlines = new PriorityQueue<>();
    private boolean bound;

    PacingSelectStrategy(long spinNanos) {
        this.spinNanos = spinNanos;
    }

    /** The strategy of the event loop running the caller, or null when that loop does not pace precisely. */
    static PacingSelectStrategy current() {
        return CURRENT.get();
    }

    long spinNanos() {
        return spinNanos;
    }

    /** Something is due at {@code deadlineNanos}: poll busily from {@code spinNanos} before it until it passes. */
    void expect(long deadlineNanos) {
        deadlines.add(deadlineNanos);
    }

    @Override
    public int calculateStrategy(IntSupplier selectSupplier, boolean hasTasks) throws Exception {
        if (!bound) {
            // The first call runs on the loop's own thread, which the strategy serves from then on.
            CURRENT.set(this);
            bound = true;
        }
        return hasTasks || withinWindow() ? selectSupplier.get() : SelectStrategy.SELECT;
    }

    private boolean withinWindow() {
        if (deadlines.isEmpty()) {
            return false;
        }
        long now = System.nanoTime();
        Long head;
        while ((head = deadlines.peek()) != null && head - now <= 0) {
            deadlines.poll();
        }
        return head != null && head - now <= spinNanos;
    }
}
