package dev.servebench.client;

import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.pool.AbstractChannelPoolHandler;
import io.netty.channel.pool.ChannelHealthChecker;
import io.netty.channel.pool.SimpleChannelPool;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.concurrent.Future;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Streaming HTTP/1.1 client for OpenAI-compatible servers: one pooled keep-alive connection per
 * concurrent stream, responses decoded incrementally on Netty event loops.
 *
 * <p>Why Netty and not {@code java.net.http}: the JDK client hands every body part through an executor
 * and copies it into a fresh buffer, which caps ingestion far below what a client ceiling benchmark
 * needs; an event loop that decodes in place keeps the client out of the measurement.
 */
public final class StreamingClient implements AutoCloseable {

    private final ClientConfig config;
    private final NanoClock clock;
    private final EventLoopGroup group;
    private final SimpleChannelPool pool;
    private final String path;
    private final String hostHeader;
    private final String authorization;
    private final java.util.concurrent.atomic.LongAdder bytesReceived = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder connectionsOpened = new java.util.concurrent.atomic.LongAdder();
    private final EventLoopThreads eventLoopThreads = new EventLoopThreads();

    public StreamingClient(ClientConfig config, NanoClock clock) {
        this.config = config;
        this.clock = clock;
        this.group = new MultiThreadIoEventLoopGroup(config.ioThreads(), eventLoopThreads, NioIoHandler.newFactory());
        this.path = config.pathPrefix() + config.endpoint().path();
        this.hostHeader = config.baseUrl().getHost() + ":" + config.port();
        this.authorization = config.apiKey().map(key -> "Bearer " + key).orElse(null);
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(NioSocketChannel.class)
                .option(ChannelOption.ALLOCATOR, new io.netty.buffer.PooledByteBufAllocator(false))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .remoteAddress(new InetSocketAddress(config.baseUrl().getHost(), config.port()));
        this.pool = new SimpleChannelPool(bootstrap, new AbstractChannelPoolHandler() {
            @Override
            public void channelCreated(Channel channel) {
                connectionsOpened.increment();
                ExchangeHandler.ReadStamp stamp = new ExchangeHandler.ReadStamp(clock, bytesReceived);
                channel.pipeline()
                        .addLast("stamp", stamp)
                        .addLast("http", new HttpClientCodec())
                        .addLast("exchange", new ExchangeHandler(stamp, clock, StreamingClient.this::onIdle));
            }
        }, ChannelHealthChecker.ACTIVE, true, true);
    }

    public ClientConfig config() {
        return config;
    }

    public NanoClock clock() {
        return clock;
    }

    /** TCP connections opened since this client was created (keep-alive reuse keeps this near the concurrency). */
    public long connectionsOpened() {
        return connectionsOpened.sum();
    }

    /** Response bytes read from the network since this client was created. */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /**
     * Sends {@code request} now and calls {@code onComplete} exactly once, on an event-loop thread, with
     * its record. Never throws for network faults: they become failed records.
     *
     * @param originNanos   clock reading of the benchmark start (record times are relative to it)
     * @param intendedNanos when the plan wanted the request sent, relative to {@code originNanos}
     * @param readyNanos    when it was due and had a concurrency slot, relative to {@code originNanos}
     */
    public void send(PreparedRequest request, long originNanos, long intendedNanos, long readyNanos,
                     Consumer<RequestRecord> onComplete) {
        long sent = clock.nanos();
        Exchange exchange = new Exchange(request, originNanos, intendedNanos, readyNanos, sent, config.endpoint(), onComplete);
        pool.acquire().addListener((Future<Channel> acquired) -> {
            if (!acquired.isSuccess()) {
                Throwable cause = acquired.cause();
                FailureKind kind = cause instanceof ConnectException || cause instanceof java.net.SocketException
                        || cause instanceof io.netty.channel.ConnectTimeoutException ? FailureKind.CONNECT : FailureKind.RESET;
                exchange.finish(new Outcome.Failure(kind, "cannot connect to " + config.baseUrl() + ": "
                        + ExchangeHandler.describe(cause), 0), clock.nanos());
                return;
            }
            Channel channel = acquired.getNow();
            ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
            handler.begin(exchange);
            channel.writeAndFlush(httpRequest(request)).addListener(written -> {
                if (!written.isSuccess()) {
                    handler.fail(channel, FailureKind.RESET, "request write failed: " + ExchangeHandler.describe(written.cause()));
                }
            });
            armStallTimer(channel, handler, exchange);
        });
    }

    private FullHttpRequest httpRequest(PreparedRequest request) {
        FullHttpRequest http = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path,
                Unpooled.wrappedBuffer(request.body()));
        http.headers()
                .set(HttpHeaderNames.HOST, hostHeader)
                .set(HttpHeaderNames.CONTENT_TYPE, HttpHeaderValues.APPLICATION_JSON)
                .set(HttpHeaderNames.CONTENT_LENGTH, request.body().length)
                .set(HttpHeaderNames.ACCEPT, "text/event-stream")
                .set(HttpHeaderNames.USER_AGENT, "servebench");
        if (authorization != null) {
            http.headers().set(HttpHeaderNames.AUTHORIZATION, authorization);
        }
        return http;
    }

    /** Fails the exchange with TIMEOUT once no byte has arrived for the stall timeout; re-arms itself otherwise. */
    private void armStallTimer(Channel channel, ExchangeHandler handler, Exchange exchange) {
        long timeout = config.stallTimeout().toNanos();
        long due = exchange.lastActivityNanos() + timeout - clock.nanos();
        channel.eventLoop().schedule(() -> {
            if (exchange.finished() || handler.current() != exchange) {
                return;
            }
            if (clock.nanos() - exchange.lastActivityNanos() >= timeout) {
                handler.fail(channel, FailureKind.TIMEOUT, "no data for " + config.stallTimeout().toMillis()
                        + " ms (stall timeout)");
            } else {
                armStallTimer(channel, handler, exchange);
            }
        }, Math.max(due, 1_000_000L), TimeUnit.NANOSECONDS);
    }

    private void onIdle(Channel channel, boolean reusable) {
        pool.release(channel);
    }

    /**
     * CPU time so far of each event-loop thread, in thread creation order: a thread near 100 % busy is a
     * client that sets the pace. Unlike process CPU, this excludes a server running in the same JVM.
     */
    public long[] eventLoopCpuNanos() {
        return eventLoopThreads.cpuNanos();
    }

    @Override
    public void close() {
        pool.close();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
