package dev.servebench.client;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Idle keep-alive connections, one stack per event loop. A request sent from an event loop (the next one of a
 * closed loop, sent from the callback of the one that just ended) takes a connection of that same loop, so it
 * is written at once instead of waiting in another loop's task queue behind that loop's reads; a request sent
 * from any other thread takes the loops in turn, so a burst is spread over all of them. Within a loop the most
 * recently released connection comes first (the least likely to have hit a server's idle timeout).
 */
final class IdleConnections {

    private final ConcurrentHashMap<EventLoop, Deque<Channel>> byLoop = new ConcurrentHashMap<>();
    private final List<Deque<Channel>> stacks = new CopyOnWriteArrayList<>();
    private final List<EventLoop> loops = new CopyOnWriteArrayList<>();
    private final AtomicInteger turn = new AtomicInteger();

    /** A released connection, first in line on its loop. */
    void pushFirst(Channel channel) {
        stackOf(channel.eventLoop()).offerFirst(channel);
    }

    /** A newly opened connection, behind the released ones on its loop. */
    void pushLast(Channel channel) {
        stackOf(channel.eventLoop()).offerLast(channel);
    }

    /** An idle connection, preferring the calling thread's own loop; null when none is idle. */
    Channel poll() {
        int count = stacks.size();
        if (count == 0) {
            return null;
        }
        int first = -1;
        for (int i = 0; i < count; i++) {
            if (loops.get(i).inEventLoop()) {
                first = i;
                break;
            }
        }
        if (first < 0) {
            first = Math.floorMod(turn.getAndIncrement(), count);
        }
        for (int i = 0; i < count; i++) {
            Channel channel = stacks.get((first + i) % count).pollFirst();
            if (channel != null) {
                return channel;
            }
        }
        return null;
    }

    /** Idle connections now (counts every stack: O(n), for warm-up and tests, not the hot path). */
    int size() {
        int size = 0;
        for (Deque<Channel> stack : stacks) {
            size += stack.size();
        }
        return size;
    }

    void clear() {
        stacks.forEach(Deque::clear);
    }

    private Deque<Channel> stackOf(EventLoop loop) {
        Deque<Channel> stack = byLoop.get(loop);
        if (stack != null) {
            return stack;
        }
        synchronized (this) {
            return byLoop.computeIfAbsent(loop, l -> {
                Deque<Channel> created = new ConcurrentLinkedDeque<>();
                // Loops and stacks grow together under the lock, so index i of one is index i of the other.
                loops.add(l);
                stacks.add(created);
                return created;
            });
        }
    }
}
