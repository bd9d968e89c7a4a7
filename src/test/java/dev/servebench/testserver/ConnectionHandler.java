package dev.servebench.testserver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;

/**
 * One connection's requests, answered strictly in order: HTTP/1.1 pipelining queues a request until the
 * response before it is complete. Everything here runs on the channel's event loop.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {

    /** A response rendered in full at arrival (static endpoints, errors). */
    private record Ready(ByteBuf response, boolean close) {
    }

    private final ScriptedServer server;
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private PacedResponse active;
    private boolean admitted;
    private boolean reading;
    private boolean draining;
    private boolean unflushed;
    private boolean closing;

    ConnectionHandler(ScriptedServer server) {
        this.server = server;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        admitted = server.admitConnection();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (admitted) {
            server.leaveConnection();
            admitted = false;
        }
        if (active != null) {
            active.abort();
            active = null;
        }
        dropQueue();
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reading = true;
        try {
            switch (msg) {
                case FullHttpRequest request -> accept(request);
                case RequestAggregator.Oversized o -> queue.add(new Ready(HttpWire.error(ctx.alloc(), 413,
                        "invalid_request_error", "request body exceeds " + server.options().maxBodyBytes()
                                + " bytes", o.close()), o.close()));
                default -> {
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
        drain();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reading = false;
        flushIfNeeded();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        // Stop decoding pipelined requests while the client is not reading what we already wrote.
        ctx.channel().config().setAutoRead(ctx.channel().isWritable());
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }

    private void accept(FullHttpRequest request) {
        long arrival = System.nanoTime();
        boolean close = !HttpUtil.isKeepAlive(request);
        if (request.decoderResult().isFailure()) {
            queue.add(error(400, "invalid_request_error", "malformed HTTP request", true));
            return;
        }
        if (!admitted) {
            queue.add(error(503, "service_unavailable", "connection limit of "
                    + server.options().maxConnections() + " reached", true));
            return;
        }
        String uri = request.uri();
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        HttpMethod method = request.method();
        Endpoint endpoint = Endpoint.forPath(path);
        if (endpoint != null) {
            if (!HttpMethod.POST.equals(method)) {
                queue.add(error(405, "invalid_request_error", method + " " + path + " is not allowed", close));
                return;
            }
            long index = server.nextRequestIndex();
            String scriptName = request.headers().get(Script.HEADER);
            Plan plan = server.script().select(index, scriptName);
            if (plan == null) {
                queue.add(error(400, "invalid_request_error", Script.HEADER + " (" + scriptName
                        + ") names no plan", close));
                return;
            }
            try {
                ApiRequest api = ApiRequest.parse(endpoint, request.content());
                queue.add(new GenerationWork(index, arrival, 0, api, plan, close));
            } catch (ApiRequest.BadRequest e) {
                queue.add(error(400, "invalid_request_error", e.getMessage(), close));
            }
        } else if (path.equals("/health") || path.equals("/v1/models")) {
            if (!HttpMethod.GET.equals(method)) {
                queue.add(error(405, "invalid_request_error", method + " " + path + " is not allowed", close));
            } else if (path.equals("/health")) {
                queue.add(new Ready(HttpWire.fullBuffer(ctx.alloc(), 200, HttpWire.TEXT, "", close), close));
            } else {
                queue.add(new Ready(HttpWire.fullBuffer(ctx.alloc(), 200, HttpWire.JSON, server.modelsBody(),
                        close), close));
            }
        } else {
            queue.add(error(404, "not_found_error", "no route for " + method + " " + path, close));
        }
    }

    private Ready error(int status, String type, String message, boolean close) {
        return new Ready(HttpWire.error(ctx.alloc(), status, type, message, close), close);
    }

    /** Answers queued requests until one needs time (a paced response) or the connection is to close. */
    private void drain() {
        if (draining) {
            return; // a response completed synchronously inside the loop below; the loop picks up the next
        }
        draining = true;
        try {
            while (active == null && !closing && !queue.isEmpty()) {
                switch (queue.poll()) {
                    case Ready r -> {
                        ctx.write(r.response());
                        unflushed = true;
                        if (r.close()) {
                            closeAfterWrites();
                        }
                    }
                    case GenerationWork w -> start(w.startedAt(System.nanoTime()));
                    default -> throw new IllegalStateException("unexpected queue entry");
                }
            }
        } finally {
            draining = false;
        }
        if (!reading) {
            flushIfNeeded();
        }
    }

    private void start(GenerationWork work) {
        Script script = server.script();
        if (work.plan().isFullSpeed() && !work.close()) {
            ResponseCache.Entry entry = server.cache().get(work.request(), work.plan());
            if (entry != null) {
                ctx.write(entry.response().retainedDuplicate());
                unflushed = true;
                if (script.recordEmissions()) {
                    server.recordCached(work, entry, System.nanoTime());
                }
                return;
            }
        }
        ByteBuf wire = ctx.alloc().directBuffer(ResponseCache.estimateBytes(work.request(), work.plan()));
        Rendering rendering;
        try {
            rendering = Renderer.render(work.request(), work.plan(), script, work.index(), work.close(), wire);
        } catch (RuntimeException e) {
            wire.release();
            throw e;
        }
        active = new PacedResponse(ctx, rendering, work, script.recordEmissions(), server::record,
                () -> finished(work));
        active.run();
    }

    /** The active paced response is complete; the connection may carry the next one. */
    private void finished(GenerationWork work) {
        active = null;
        if (work.close()) {
            closeAfterWrites();
        }
        drain();
    }

    private void closeAfterWrites() {
        closing = true;
        dropQueue();
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        unflushed = false;
    }

    private void flushIfNeeded() {
        if (unflushed) {
            unflushed = false;
            ctx.flush();
        }
    }

    private void dropQueue() {
        for (Object o : queue) {
            if (o instanceof Ready r) {
                r.response().release();
            }
        }
        queue.clear();
    }
}
