package dev.servebench.client;

import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * Streaming HTTP/1.1 client for OpenAI-compatible servers: one pooled keep-alive connection per
 * concurrent stream, responses decoded incrementally on Netty event loops.
 *
 * <p>Why Netty and not {@code java.net.http}: the JDK client hands every body part through an executor
 * and copies it into a fresh buffer, which caps ingestion far below what a client ceiling benchmark
 * needs; an event loop that decodes in place keeps the client out of the measurement.
 *
 * <p>Every request ends: a pooled connection the server closed while it was idle is skipped; one that dies
 * before any byte of the response arrived is retried once on a fresh connection (counted, not a server
 * failure); anything else becomes a failed record. An unexpected error inside the client is reported to
 * {@link #internalError()} for the driver's watchdog, never thrown into an event loop.
 */
public final class StreamingClient implements AutoCloseable {

    private final ClientConfig config;
    private final NanoClock clock;
    private final IoTransport transport;
    private final EventLoopGroup group;
    private final ConnectionPool pool;
    private final String path;
    private final String hostHeader;
    private final String authorization;
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder staleRetries = new LongAdder();
    private final EventLoopThreads eventLoopThreads = new EventLoopThreads();
    private final Set<Exchange> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicReference<Throwable> internalError = new AtomicReference<>();
    private final ExchangeHandler.Owner owner = new ExchangeHandler.Owner() {
        @Override
        public void idle(Channel channel, boolean reusable) {
            pool.release(channel, reusable);
        }

        @Override
        public boolean retryStale(Exchange exchange, boolean connectionWasReused) {
            return connectionWasReused && retryOnFreshConnection(exchange);
        }

        @Override
        public void internalError(Throwable error) {
            reportInternalError(error);
        }
    };

    public StreamingClient(ClientConfig config, NanoClock clock) {
        this(config, clock, IoTransport.chosen());
    }

    public StreamingClient(ClientConfig config, NanoClock clock, IoTransport transport) {
        this.config = config;
        this.clock = clock;
        this.transport = transport;
        this.group = new MultiThreadIoEventLoopGroup(config.ioThreads(), eventLoopThreads, transport.handlerFactory());
        this.path = config.pathPrefix() + config.endpoint().path();
        this.hostHeader = config.baseUrl().getHost() + ":" + config.port();
        this.authorization = config.apiKey().map(key -> "Bearer " + key).orElse(null);
        Bootstrap bootstrap = new Bootstrap()
                .group(group)
                .channel(transport.channelClass())
                .option(ChannelOption.ALLOCATOR, new PooledByteBufAllocator(false))
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.SO_KEEPALIVE, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .remoteAddress(new InetSocketAddress(config.baseUrl().getHost(), config.port()))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        installPipeline(channel);
                    }
                });
        this.pool = new ConnectionPool(bootstrap, channel -> {
            ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
            return handler != null && handler.idleAndOpen(channel);
        });
    }

    /** The handlers of one connection, also used by {@link ClientWarmup} on an in-memory channel. */
    void installPipeline(Channel channel) {
        ExchangeHandler.ReadStamp stamp = new ExchangeHandler.ReadStamp(clock, bytesReceived);
        channel.pipeline()
                .addLast("stamp", stamp)
                .addLast("http", new HttpClientCodec())
                .addLast("exchange", new ExchangeHandler(stamp, clock, owner));
    }

    public ClientConfig config() {
        return config;
    }

    public NanoClock clock() {
        return clock;
    }

    /** The event loops' I/O transport (epoll where Netty's native transport loads, else NIO). */
    public IoTransport transport() {
        return transport;
    }

    /** TCP connections opened since this client was created (keep-alive reuse keeps this near the concurrency). */
    public long connectionsOpened() {
        return pool.opened();
    }

    /** Response bytes read from the network since this client was created. */
    public long bytesReceived() {
        return bytesReceived.sum();
    }

    /**
     * Requests re-sent on a fresh connection because their pooled connection died before any response byte
     * (a server closing idle keep-alive connections); not server failures.
     */
    public long staleConnectionRetries() {
        return staleRetries.sum();
    }

    /** Idle pooled connections found closed by the server and skipped before a request was written on them. */
    public long staleConnectionsSkipped() {
        return pool.discardedStale();
    }

    /** The first unexpected error inside the client, or null: the run cannot be trusted after one. */
    public Throwable internalError() {
        return internalError.get();
    }

    /** Reports an unexpected error from any servebench thread of this run (e.g. the records writer). */
    public void reportInternalError(Throwable error) {
        internalError.compareAndSet(null, error);
    }

    /**
     * Opens connections until {@code count} idle ones wait in the pool, so that opening them is not charged
     * to the first measured requests. Returns how many were opened.
     *
     * @throws IOException when not a single connection could be opened
     */
    public int openConnections(int count, long timeoutMillis) throws IOException, InterruptedException {
        return pool.prewarm(count, timeoutMillis);
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
        send(request, originNanos, intendedNanos, readyNanos, false, (record, text) -> onComplete.accept(record));
    }

    /**
     * {@link #send(PreparedRequest, long, long, long, Consumer)}, handing {@code onComplete} the generated text
     * too when {@code keepText} (for a client tokenizer to re-count; the text is dropped once handed over).
     */
    public void send(PreparedRequest request, long originNanos, long intendedNanos, long readyNanos, boolean keepText,
                     ExchangeListener onComplete) {
        long sent = clock.nanos();
        Exchange[] self = new Exchange[1];
        ExchangeListener complete = (record, text) -> {
            inFlight.remove(self[0]);
            onComplete.finished(record, text);
        };
        Exchange exchange = new Exchange(request, originNanos, intendedNanos, readyNanos, sent, config.endpoint(),
                keepText, complete, this::reportInternalError);
        self[0] = exchange;
        inFlight.add(exchange);
        dispatch(exchange, false);
    }

    private void dispatch(Exchange exchange, boolean fresh) {
        pool.acquire(fresh, channel -> {
            try {
                start(channel, exchange);
            } catch (Throwable t) {
                reportInternalError(t);
            }
        }, cause -> {
            try {
                exchange.finish(connectFailure(cause), clock.nanos());
            } catch (Throwable t) {
                reportInternalError(t);
            }
        });
    }

    private Outcome.Failure connectFailure(Throwable cause) {
        FailureKind kind = cause instanceof ConnectException || cause instanceof SocketException
                || cause instanceof ConnectTimeoutException ? FailureKind.CONNECT : FailureKind.RESET;
        return new Outcome.Failure(kind, "cannot connect to " + config.baseUrl() + ": "
                + ExchangeHandler.describe(cause), 0);
    }

    private void start(Channel channel, Exchange exchange) {
        ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
        if (handler == null || exchange.finished()) {
            pool.release(channel, handler != null);
            return;
        }
        handler.begin(exchange, channel);
        String cancel = exchange.cancelReason();
        if (cancel != null) {
            handler.fail(channel, FailureKind.CANCELLED, cancel);
            return;
        }
        Object request = httpRequest(exchange.request());
        exchange.writingAt(clock.nanos());
        channel.writeAndFlush(request).addListener(written -> {
            if (!written.isSuccess()) {
                try {
                    handler.writeFailed(channel, written.cause());
                } catch (Throwable t) {
                    reportInternalError(t);
                }
            }
        });
        armTimers(channel, handler, exchange);
    }

    private boolean retryOnFreshConnection(Exchange exchange) {
        if (exchange.cancelReason() != null) {
            return false;
        }
        staleRetries.increment();
        exchange.retryAt(clock.nanos());
        dispatch(exchange, true);
        return true;
    }

    /**
     * Ends every request in flight as {@code CANCELLED} with {@code reason} (a load point cut short); each
     * record still reaches its callback. Safe from any thread.
     */
    public void cancelInFlight(String reason) {
        for (Exchange exchange : inFlight) {
            exchange.requestCancel(reason);
            Channel channel = exchange.channel();
            if (channel != null) {
                channel.eventLoop().execute(() -> {
                    ExchangeHandler handler = channel.pipeline().get(ExchangeHandler.class);
                    if (handler != null && handler.current() == exchange) {
                        handler.fail(channel, FailureKind.CANCELLED, reason);
                    }
                });
            }
        }
    }

    /** Requests sent and not yet finished. */
    public int inFlightCount() {
        return inFlight.size();
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

    /**
     * Fails the exchange with TIMEOUT once no byte has arrived for the stall timeout, or once it has taken
     * longer than the total request timeout; re-arms itself otherwise.
     */
    private void armTimers(Channel channel, ExchangeHandler handler, Exchange exchange) {
        long stall = config.stallTimeout().toNanos();
        long now = clock.nanos();
        long due = exchange.lastActivityNanos() + stall - now;
        if (config.requestTimeout().isPresent()) {
            due = Math.min(due, exchange.sentAtNanos() + config.requestTimeout().get().toNanos() - now);
        }
        exchange.replaceTimer(channel.eventLoop().schedule(() -> {
            try {
                if (exchange.finished() || handler.current() != exchange) {
                    return;
                }
                long at = clock.nanos();
                if (config.requestTimeout().isPresent()
                        && at - exchange.sentAtNanos() >= config.requestTimeout().get().toNanos()) {
                    handler.fail(channel, FailureKind.TIMEOUT, "request took longer than "
                            + config.requestTimeout().get().toMillis() + " ms (request timeout)");
                } else if (at - exchange.lastActivityNanos() >= stall) {
                    handler.fail(channel, FailureKind.TIMEOUT, "no data for " + config.stallTimeout().toMillis()
                            + " ms (stall timeout)");
                } else {
                    armTimers(channel, handler, exchange);
                }
            } catch (Throwable t) {
                reportInternalError(t);
            }
        }, Math.max(due, 1_000_000L), TimeUnit.NANOSECONDS));
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
