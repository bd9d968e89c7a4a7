package dev.servebench.client;

import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.function.BiConsumer;

/**
 * Per-connection handler: feeds decoded HTTP parts to the connection's current {@link Exchange}. The
 * read timestamp comes from {@link ReadStamp}, which sits before the HTTP codec.
 */
final class ExchangeHandler extends ChannelInboundHandlerAdapter {

    /** Stamps each raw network read with the clock before any decoding happens. */
    static final class ReadStamp extends ChannelInboundHandlerAdapter {
        private final NanoClock clock;
        private final java.util.concurrent.atomic.LongAdder bytesRead;
        long lastReadNanos;

        ReadStamp(NanoClock clock, java.util.concurrent.atomic.LongAdder bytesRead) {
            this.clock = clock;
            this.bytesRead = bytesRead;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            lastReadNanos = clock.nanos();
            if (msg instanceof ByteBuf buf) {
                bytesRead.add(buf.readableBytes());
            }
            ctx.fireChannelRead(msg);
        }
    }

    private final ReadStamp stamp;
    private final NanoClock clock;
    /** Called once per finished exchange: (channel, reusable?) so the client can release or close it. */
    private final BiConsumer<Channel, Boolean> onIdle;
    private Exchange current;
    private boolean keepAlive = true;

    ExchangeHandler(ReadStamp stamp, NanoClock clock, BiConsumer<Channel, Boolean> onIdle) {
        this.stamp = stamp;
        this.clock = clock;
        this.onIdle = onIdle;
    }

    void begin(Exchange exchange) {
        current = exchange;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            Exchange exchange = current;
            if (exchange == null || exchange.finished()) {
                return; // bytes after a finished exchange (e.g. after an early failure) are dropped
            }
            long now = stamp.lastReadNanos;
            if (msg instanceof HttpResponse response) {
                keepAlive = io.netty.handler.codec.http.HttpUtil.isKeepAlive(response);
                exchange.onStatus(response.status().code(), now);
            }
            if (msg instanceof HttpContent content) {
                Outcome.Failure failure = exchange.onContent(content.content(), now);
                if (failure != null) {
                    end(ctx.channel(), failure, false);
                    return;
                }
                if (msg instanceof LastHttpContent) {
                    Outcome outcome = exchange.onEnd(now);
                    end(ctx.channel(), outcome, keepAlive && outcome.succeeded());
                }
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail(ctx.channel(), FailureKind.RESET, "connection closed by the server before the response ended");
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        FailureKind kind = cause instanceof IOException ? FailureKind.RESET : FailureKind.PROTOCOL;
        fail(ctx.channel(), kind, describe(cause));
        ctx.close();
    }

    /** Fails the current exchange (if any) and closes the connection. */
    void fail(Channel channel, FailureKind kind, String reason) {
        Exchange exchange = current;
        if (exchange != null && !exchange.finished()) {
            end(channel, new Outcome.Failure(kind, reason, 0), false);
        }
    }

    Exchange current() {
        return current;
    }

    private void end(Channel channel, Outcome outcome, boolean reusable) {
        Exchange exchange = current;
        current = null;
        if (!reusable) {
            channel.close();
        }
        onIdle.accept(channel, reusable);
        exchange.finish(outcome, clock.nanos());
    }

    static String describe(Throwable cause) {
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
