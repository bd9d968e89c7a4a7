package dev.servebench.testserver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Whole full-speed responses, rendered once per (request shape, plan) and shared read-only by every connection.
 * Each write sends a {@code retainedDuplicate()}, so serving a stream costs no copy and no rendering. Bounded:
 * past the budget a response is rendered per request instead.
 */
final class ResponseCache implements AutoCloseable {

    /** Everything that shapes the bytes; the model and created time are fixed per server. */
    private record Key(ApiRequest request, Plan plan) {
    }

    /** The rendered response and the token chunks it carries, for cheap emission logs. */
    record Entry(ByteBuf response, int[] chunkTokens) {
    }

    private final ConcurrentHashMap<Key, Entry> entries = new ConcurrentHashMap<>();
    private final AtomicLong bytes = new AtomicLong();
    private final long maxBytes;
    private final Script script;
    private final HttpWire.Framing framing;
    private volatile boolean closed;

    /** {@code framing}: the server's usual framing; a response framed otherwise is not served from here. */
    ResponseCache(Script script, HttpWire.Framing framing, long maxBytes) {
        this.script = script;
        this.framing = framing;
        this.maxBytes = maxBytes;
    }

    /**
     * The cached response, or null when the budget is spent (render it per request then). Callers write
     * {@code entry.response().retainedDuplicate()}.
     */
    HttpWire.Framing framing() {
        return framing;
    }

    Entry get(ApiRequest request, Plan plan) {
        Key key = new Key(request, plan);
        Entry entry = entries.get(key);
        if (entry != null || bytes.get() >= maxBytes || closed) {
            return entry;
        }
        return entries.computeIfAbsent(key, k -> {
            Entry rendered = render(request, plan);
            bytes.addAndGet(rendered.response().capacity());
            return rendered;
        });
    }

    /** Renders with id number 0 (every cached response shares its ids) into an exactly sized buffer. */
    private Entry render(ApiRequest request, Plan plan) {
        ByteBuf scratch = Unpooled.directBuffer(estimateBytes(request, plan));
        try {
            Rendering r = Renderer.render(request, plan, script, 0, framing, scratch);
            ByteBuf exact = Unpooled.directBuffer(scratch.readableBytes());
            exact.writeBytes(scratch);
            return new Entry(exact.asReadOnly(), r.chunkTokens());
        } finally {
            scratch.release();
        }
    }

    static int estimateBytes(ApiRequest request, Plan plan) {
        long tokens = request.completionTokens(plan);
        long perEvent = 256 + (request.endpoint() == Endpoint.GENERATE ? tokens * 4 : 0);
        return (int) Math.min(64L << 20, 512 + tokens * perEvent / Math.max(1, plan.tokensPerChunk()) / 2);
    }

    @Override
    public void close() {
        closed = true;
        entries.values().forEach(e -> e.response().release());
        entries.clear();
    }
}
