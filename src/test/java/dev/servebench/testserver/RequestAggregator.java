package dev.servebench.testserver;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import java.nio.charset.StandardCharsets;

/**
 * Aggregates request bodies up to the limit. The pipeline has no HTTP encoder (responses are raw bytes), so
 * the two answers Netty's aggregator would write itself are replaced: 100-continue is raw bytes, and an
 * oversized body becomes an {@link Oversized} message that the connection handler answers 413 in order.
 */
final class RequestAggregator extends HttpObjectAggregator {

    /** Stands in for a request whose body exceeded the limit; {@code close}: the connection cannot be reused. */
    record Oversized(boolean close) {
    }

    RequestAggregator(int maxBodyBytes) {
        super(maxBodyBytes);
    }

    @Override
    protected Object newContinueResponse(HttpMessage start, int maxContentLength, ChannelPipeline pipeline) {
        if (!HttpUtil.is100ContinueExpected(start) || HttpUtil.getContentLength(start, -1L) > maxContentLength) {
            return null; // an oversized body is refused by handleOversizedMessage instead
        }
        start.headers().remove(HttpHeaderNames.EXPECT);
        return Unpooled.copiedBuffer("HTTP/1.1 100 Continue\r\n\r\n", StandardCharsets.US_ASCII);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
        // Mirrors Netty: a declared-too-long body on a keep-alive connection is skipped, not read, and the
        // connection survives; a body found too long while streaming in leaves the connection unusable.
        boolean close = oversized instanceof FullHttpMessage || !ctx.channel().config().isAutoRead()
                || (!HttpUtil.is100ContinueExpected(oversized) && !HttpUtil.isKeepAlive(oversized));
        ctx.fireChannelRead(new Oversized(close));
    }
}
