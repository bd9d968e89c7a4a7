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
 * response before it is complete. The server's {@link ConnectionBehavior} decides when the connection ends
 * besides the client asking: after every or every Nth response, or when idle. Everything here runs on the
 * channel's event loop.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {

    /** A response rendered in full at arrival (static endpoints, errors). */
    private record Ready(ByteBuf response, boolean close) {
    }

    private final ScriptedServer server;
    private final IdleTimeout idle;
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private PacedResponse active;
    private boolean admitted;
    private boolean reading;
    private boolean draining;
    private boolean unflushed;
    private boolean closing;
    /** Complete responses sent on this connection, for {@link ConnectionBehavior#closeAfterResponses()}. */
    private int responses;

    ConnectionHandler(ScriptedServer server, IdleTimeout idle) {
        this.server = server;
        this.idle = idle;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        admitted = server.admitConnection();
        ctx.fireChannelActive();
        armIdleIfQuiet(); // uvicorn's keep-alive timer starts at connect: a silent client is dropped too
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
                case RequestAggregator.Oversized o -> queue.add(error(o.close() ? framing().closing() : framing(),
                        413, "invalid_request_error", "request body exceeds " + server.options().maxBodyBytes()
                                + " bytes"));
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
        HttpWire.Framing framing = HttpUtil.isKeepAlive(request) ? framing() : framing().closing();
        if (request.decoderResult().isFailure()) {
            queue.add(error(framing.closing(), 400, "invalid_request_error", "malformed HTTP request"));
            return;
        }
        if (!admitted) {
            queue.add(error(framing.closing(), 503, "service_unavailable", "connection limit of "
                    + server.options().maxConnections() + " reached"));
            return;
        }
        if (server.rejectWhileStarting()) {
            // Takes no request index, so a script's plans by index describe the requests actually served.
            queue.add(error(framing, 503, "service_unavailable", "the model is still loading; retry later"));
            return;
        }
        String uri = request.uri();
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        HttpMethod method = request.method();
        Endpoint endpoint = Endpoint.forPath(path);
        if (endpoint != null) {
            if (!HttpMethod.POST.equals(method)) {
                queue.add(error(framing, 405, "invalid_request_error", method + " " + path + " is not allowed"));
                return;
            }
            long index = server.nextRequestIndex();
            String scriptName = request.headers().get(Script.HEADER);
            Plan plan = server.script().select(index, scriptName);
            if (plan == null) {
                queue.add(error(framing, 400, "invalid_request_error", Script.HEADER + " (" + scriptName
                        + ") names no plan"));
                return;
            }
            try {
                ApiRequest api = ApiRequest.parse(endpoint, request.content());
                queue.add(new GenerationWork(index, arrival, 0, api, plan, framing));
            } catch (ApiRequest.BadRequest e) {
                queue.add(error(framing, 400, "invalid_request_error", e.getMessage()));
            }
        } else if (path.equals("/health") || path.equals("/v1/models")) {
            if (!HttpMethod.GET.equals(method)) {
                queue.add(error(framing, 405, "invalid_request_error", method + " " + path + " is not allowed"));
            } else if (path.equals("/health")) {
                queue.add(new Ready(HttpWire.fullBuffer(ctx.alloc(), framing, 200, HttpWire.TEXT, "",
                        framing.whole()), framing.closes()));
            } else {
                queue.add(new Ready(HttpWire.fullBuffer(ctx.alloc(), framing, 200, HttpWire.JSON,
                        server.modelsBody(), framing.whole()), framing.closes()));
            }
        } else {
            queue.add(error(framing, 404, "not_found_error", "no route for " + method + " " + path));
        }
    }

    /** The server's usual framing: what the cache holds. */
    private HttpWire.Framing framing() {
        return server.cache().framing();
    }

    private Ready error(HttpWire.Framing framing, int status, String type, String message) {
        return new Ready(HttpWire.error(ctx.alloc(), framing, status, type, message), framing.closes());
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
                        responseDone(r.close());
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
        armIdleIfQuiet();
    }

    private void start(GenerationWork work) {
        Script script = server.script();
        if (work.plan().isFullSpeed() && work.framing().equals(framing())) {
            ResponseCache.Entry entry = server.cache().get(work.request(), work.plan());
            if (entry != null) {
                ctx.write(entry.response().retainedDuplicate());
                unflushed = true;
                if (script.recordEmissions()) {
                    server.recordCached(work, entry, System.nanoTime());
                }
                responseDone(work.framing().closes());
                return;
            }
        }
        ByteBuf wire = ctx.alloc().directBuffer(ResponseCache.estimateBytes(work.request(), work.plan()));
        Rendering rendering;
        try {
            rendering = Renderer.render(work.request(), work.plan(), script, work.index(), work.framing(), wire);
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
        responseDone(work.framing().closes());
        drain();
    }

    /**
     * A response has been written in full. The connection ends here when its framing says so or when it was
     * the Nth: the unannounced close of a server that drops keep-alive connections after a few responses.
     */
    private void responseDone(boolean close) {
        responses++;
        int limit = server.options().connection().closeAfterResponses();
        if (close || (limit > 0 && responses >= limit)) {
            closeOnPurpose(false);
        }
    }

    /** Starts the keep-alive timer when nothing is queued or being sent. */
    private void armIdleIfQuiet() {
        if (active == null && queue.isEmpty() && !closing && ctx.channel().isActive()) {
            idle.arm(ctx, this::idleExpired);
        }
    }

    private void idleExpired() {
        // Bytes arriving cancel the timer, so this is a re-check only: never cut a request or response short.
        if (active == null && queue.isEmpty() && !closing) {
            closeOnPurpose(true);
        }
    }

    /** An orderly close (FIN) after what was written so far; later pipelined requests go unanswered. */
    private void closeOnPurpose(boolean idleTimeout) {
        if (closing) {
            return;
        }
        closing = true;
        server.closedOnPurpose(idleTimeout);
        idle.cancel();
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
