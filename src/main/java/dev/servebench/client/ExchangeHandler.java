package dev.servebench.client;

import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.io.IOException;
import java.util.concurrent.atomic.LongAdder;

/**
 * Per-connection handler: feeds decoded HTTP parts to the connection's current {@link Exchange}. The
 * read timestamp comes from {@link ReadStamp}, which sits before the HTTP codec. Every entry point catches
 * everything: an exception escaping into Netty would only be logged, and the request would never end.
 */
final class ExchangeHandler extends ChannelInboundHandlerAdapter {

    /** Stamps each raw network read with the clock before any decoding happens. */
    static final class ReadStamp extends ChannelInboundHandlerAdapter {
        private final NanoClock clock;
        private final LongAdder bytesRead;
        long lastReadNanos;

        ReadStamp(NanoClock clock, LongAdder bytesRead) {
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

    /** What the handler needs from the client: where finished and dead-on-arrival exchanges go. */
    interface Owner {
        /** The exchange ended; the connection may carry another request when {@code reusable}. */
        void idle(Channel channel, boolean reusable);

        /**
         * The connection died before any response byte of {@code exchange} arrived; returns whether the
         * owner re-sent it on a fresh connection (then the exchange must not be failed here).
         */
        boolean retryStale(Exchange exchange, boolean connectionWasReused);

        /** An unexpected error inside the client: stops the run. */
        void internalError(Throwable error);
    }

    private final ReadStamp stamp;
    private final NanoClock clock;
    private final Owner owner;
    private Exchange current;
    private boolean keepAlive = true;
    private int exchangesCompleted;

    ExchangeHandler(ReadStamp stamp, NanoClock clock, Owner owner) {
        this.stamp = stamp;
        this.clock = clock;
        this.owner = owner;
    }

    /** Whether this connection may carry a new request now (called on its event loop). */
    boolean idleAndOpen(Channel channel) {
        return current == null && keepAlive && channel.isActive();
    }

    void begin(Exchange exchange, Channel channel) {
        current = exchange;
        keepAlive = true;
        exchange.attachTo(channel);
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
                // HTTP/1.0 without keep-alive and "Connection: close" both end the connection after this body.
                keepAlive = HttpUtil.isKeepAlive(response);
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
        } catch (Throwable t) {
            failInternally(ctx.channel(), t);
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        try {
            connectionDied(ctx.channel(), FailureKind.RESET, "connection closed by the server before the response ended");
        } catch (Throwable t) {
            failInternally(ctx.channel(), t);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof Error error) {
            // An OutOfMemoryError while Netty read or decoded: the client, not the server, failed.
            owner.internalError(error);
        }
        try {
            FailureKind kind = cause instanceof IOException ? FailureKind.RESET : FailureKind.PROTOCOL;
            connectionDied(ctx.channel(), kind, describe(cause));
        } catch (Throwable t) {
            failInternally(ctx.channel(), t);
        }
        ctx.close();
    }

    /** The request could not be written: the connection was dead before any byte of it left. */
    void writeFailed(Channel channel, Throwable cause) {
        connectionDied(channel, FailureKind.RESET, "request write failed: " + describe(cause));
    }

    private void connectionDied(Channel channel, FailureKind kind, String reason) {
        Exchange exchange = current;
        if (exchange == null || exchange.finished()) {
            return;
        }
        if (!exchange.responseStarted() && !exchange.retried()) {
            current = null;
            channel.close();
            if (owner.retryStale(exchange, exchangesCompleted > 0)) {
                return;
            }
            current = exchange;
        }
        end(channel, new Outcome.Failure(kind, reason, 0), false);
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

    private void failInternally(Channel channel, Throwable t) {
        owner.internalError(t);
        try {
            fail(channel, FailureKind.PROTOCOL, "internal client error: " + describe(t));
        } catch (Throwable ignored) {
            // already reported; the run is being stopped
        }
    }

    private void end(Channel channel, Outcome outcome, boolean reusable) {
        Exchange exchange = current;
        current = null;
        exchangesCompleted++;
        if (!reusable) {
            keepAlive = false;
            channel.close();
        }
        owner.idle(channel, reusable);
        exchange.finish(outcome, clock.nanos());
    }

    static String describe(Throwable cause) {
        String message = cause.getMessage();
        return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
