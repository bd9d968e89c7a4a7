package dev.servebench.testserver;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The keep-alive timer of one connection, first in the pipeline so that any inbound byte, even half a
 * request, stops it, as uvicorn does on {@code data_received}. {@link ConnectionHandler} arms it whenever no
 * request is in flight; when it fires the handler closes the connection. Event loop only.
 */
final class IdleTimeout extends ChannelInboundHandlerAdapter {

    private final long nanos;
    private ScheduledFuture<?> timer;

    /** {@code timeout} zero: never armed. */
    IdleTimeout(Duration timeout) {
        this.nanos = timeout.toNanos();
    }

    /** (Re)starts the timer; {@code onExpiry} runs on the event loop unless bytes arrive first. */
    void arm(ChannelHandlerContext ctx, Runnable onExpiry) {
        if (nanos == 0) {
            return;
        }
        cancel();
        timer = ctx.executor().schedule(onExpiry, nanos, TimeUnit.NANOSECONDS);
    }

    void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        cancel();
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancel();
        ctx.fireChannelInactive();
    }
}
