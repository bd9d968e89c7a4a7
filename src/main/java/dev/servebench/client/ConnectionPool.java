package dev.servebench.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Keep-alive connections to one server. Every callback for a connection runs on that connection's own event
 * loop, so the exchange state it touches stays confined to one thread.
 *
 * <p>Why not Netty's {@code SimpleChannelPool}: its acquire promise completes on an arbitrary event loop of
 * the group, so a connection the server had just closed could be handed to a request on another thread
 * while its pipeline was being torn down (the request was then never finished). Here a pooled connection is
 * re-checked on its own loop right before use, and a dead one is dropped and the next one tried.
 */
final class ConnectionPool implements AutoCloseable {

    private static final int MAX_NESTED_HAND_OVERS = 4;
    private static final ThreadLocal<int[]> HAND_OVER_DEPTH = ThreadLocal.withInitial(() -> new int[1]);

    /** What a connection in the pool must still have to carry a request. */
    interface Usable {
        boolean usable(Channel channel);
    }

    private final Bootstrap bootstrap;
    private final Usable usable;
    private final IdleConnections idle = new IdleConnections();
    private final Set<Channel> open = ConcurrentHashMap.newKeySet();
    private final LongAdder opened = new LongAdder();
    private final LongAdder discardedStale = new LongAdder();
    private volatile boolean closed;

    ConnectionPool(Bootstrap bootstrap, Usable usable) {
        this.bootstrap = bootstrap;
        this.usable = usable;
    }

    /**
     * Hands a usable connection to {@code onChannel} on the connection's event loop: an idle one (see
     * {@link IdleConnections} for which), else a new one. Connect failures go to {@code onFailure}, also on an
     * event loop. Neither callback may throw.
     */
    void acquire(boolean fresh, Consumer<Channel> onChannel, Consumer<Throwable> onFailure) {
        Channel channel = fresh ? null : idle.poll();
        if (channel == null) {
            connect(onChannel, onFailure);
            return;
        }
        Channel candidate = channel;
        int[] depth = HAND_OVER_DEPTH.get();
        if (candidate.eventLoop().inEventLoop() && depth[0] < MAX_NESTED_HAND_OVERS) {
            // A request sent from a finishing one's callback on the same loop goes out now, not after
            // everything else the loop has queued. Bounded: requests that fail at once (and send the next
            // from their callback) must not nest without end.
            depth[0]++;
            try {
                handOver(candidate, onChannel, onFailure);
            } finally {
                depth[0]--;
            }
        } else {
            candidate.eventLoop().execute(() -> handOver(candidate, onChannel, onFailure));
        }
    }

    private void handOver(Channel candidate, Consumer<Channel> onChannel, Consumer<Throwable> onFailure) {
        if (usable.usable(candidate)) {
            onChannel.accept(candidate);
        } else {
            discardedStale.increment();
            candidate.close();
            acquire(false, onChannel, onFailure);
        }
    }

    private void connect(Consumer<Channel> onChannel, Consumer<Throwable> onFailure) {
        if (closed) {
            onFailure.accept(new IllegalStateException("the client is closed"));
            return;
        }
        ChannelFuture connecting = bootstrap.connect();
        connecting.addListener(done -> {
            if (done.isSuccess()) {
                Channel channel = connecting.channel();
                track(channel);
                onChannel.accept(channel);
            } else {
                onFailure.accept(done.cause());
            }
        });
    }

    /** Counts a new connection and keeps it in the open set until it closes. */
    private void track(Channel channel) {
        opened.increment();
        open.add(channel);
        channel.closeFuture().addListener(c -> open.remove(channel));
    }

    /** Returns a connection after a complete exchange; one that cannot carry another request is closed. */
    void release(Channel channel, boolean reusable) {
        if (reusable && !closed && channel.isActive()) {
            idle.pushFirst(channel);
        } else {
            channel.close();
        }
    }

    /**
     * Opens connections until {@code count} are idle in the pool, waiting at most {@code timeoutMillis}, so
     * that a load point's first wave does not pay for TCP handshakes. Returns how many were opened; the
     * first connect failure, if any, as the exception.
     */
    int prewarm(int count, long timeoutMillis) throws InterruptedException, java.io.IOException {
        int missing = count - idle.size();
        if (missing <= 0) {
            return 0;
        }
        List<ChannelFuture> connecting = new ArrayList<>(missing);
        for (int i = 0; i < missing; i++) {
            connecting.add(bootstrap.connect());
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        int ready = 0;
        Throwable firstFailure = null;
        for (ChannelFuture future : connecting) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || !future.await(left, TimeUnit.NANOSECONDS)) {
                future.cancel(false);
                future.channel().close();
                continue;
            }
            if (future.isSuccess()) {
                Channel channel = future.channel();
                track(channel);
                idle.pushLast(channel);
                ready++;
            } else if (firstFailure == null) {
                firstFailure = future.cause();
            }
        }
        if (firstFailure != null && ready == 0) {
            throw new java.io.IOException(ExchangeHandler.describe(firstFailure), firstFailure);
        }
        return ready;
    }

    long opened() {
        return opened.sum();
    }

    /** Pooled connections found closed (by the server, while idle) and skipped before any request used them. */
    long discardedStale() {
        return discardedStale.sum();
    }

    int idleCount() {
        return idle.size();
    }

    /** Every connection that is open now, busy or idle. */
    Set<Channel> openChannels() {
        return open;
    }

    @Override
    public void close() {
        closed = true;
        for (Channel channel : open) {
            channel.close();
        }
        idle.clear();
    }
}
