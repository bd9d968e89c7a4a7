package dev.servebench.testserver;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpRequestDecoder;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.channels.spi.SelectorProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scripted OpenAI-compatible streaming server on Netty NIO, bound to loopback, for tests and as the fast
 * loopback server of the client benchmark. Every answer follows the {@link Plan} the {@link Script} picks;
 * paced answers are logged as {@link EmissionLog}s when the script records emissions.
 *
 * <pre>{@code
 * try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.builder()
 *         .ttft(Duration.ofMillis(50)).gap(Duration.ofMillis(10)).build()))) {
 *     // POST http://127.0.0.1:<server.port()>/v1/completions ...
 *     List<EmissionLog> truth = server.awaitEmissions(1, Duration.ofSeconds(5));
 * }
 * }</pre>
 */
public final class ScriptedServer implements AutoCloseable {

    private final Script script;
    private final ServerOptions options;
    private final EventLoopGroup group;
    private final Channel listener;
    private final ResponseCache cache;
    private final String modelsBody;
    private final long startedNanos = System.nanoTime();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong closedByServer = new AtomicLong();
    private final AtomicLong idleClosed = new AtomicLong();
    private final AtomicLong slowStartRejections = new AtomicLong();
    private final ConcurrentLinkedQueue<EmissionLog> emissions = new ConcurrentLinkedQueue<>();
    private final Object emissionSignal = new Object();

    private ScriptedServer(Script script, ServerOptions options) throws InterruptedException {
        this.script = script;
        this.options = options;
        this.cache = new ResponseCache(script, HttpWire.Framing.of(options.connection()),
                options.maxCacheBytes());
        this.modelsBody = "{\"object\":\"list\",\"data\":[{\"id\":" + Json.quote(script.model())
                + ",\"object\":\"model\",\"created\":" + script.createdEpochSeconds()
                + ",\"owned_by\":\"servebench\"}]}";
        this.group = new MultiThreadIoEventLoopGroup(options.ioThreads(), options.spinNanos() > 0
                ? NioIoHandler.newFactory(SelectorProvider.provider(),
                        () -> new PacingSelectStrategy(options.spinNanos()))
                : NioIoHandler.newFactory());
        try {
            ServerBootstrap bootstrap = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            IdleTimeout idle = new IdleTimeout(options.connection().idleTimeout());
                            ch.pipeline().addLast(idle, new HttpRequestDecoder(), new RequestAggregator(
                                    options.maxBodyBytes()), new ConnectionHandler(ScriptedServer.this, idle));
                        }
                    });
            this.listener = bootstrap.bind(options.host(), options.port()).sync().channel();
        } catch (InterruptedException | RuntimeException e) {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
            throw e;
        }
    }

    /** Same as {@link ScriptedServerMain#main}: a full-speed server in its own process. */
    public static void main(String[] args) throws java.io.IOException {
        ScriptedServerMain.main(args);
    }

    /** Starts on 127.0.0.1 with an ephemeral port and default limits. */
    public static ScriptedServer start(Script script) {
        return start(script, ServerOptions.defaults());
    }

    public static ScriptedServer start(Script script, ServerOptions options) {
        try {
            return new ScriptedServer(script, options);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while binding", e);
        }
    }

    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    public String host() {
        return options.host();
    }

    /** {@code http://host:port}, without a trailing slash. */
    public URI baseUri() {
        return URI.create("http://" + options.host() + ":" + port());
    }

    public Script script() {
        return script;
    }

    public ServerOptions options() {
        return options;
    }

    /** Generation requests seen so far (the next arrival index). */
    public long requestCount() {
        return requests.get();
    }

    /** Connections currently open and admitted. */
    public int openConnections() {
        return connections.get();
    }

    /** Connections accepted so far, those refused over {@code maxConnections} included. */
    public long acceptedConnections() {
        return accepted.get();
    }

    /**
     * Connections the server chose to end with an orderly close (FIN): after a response (the client asked, a
     * {@link ConnectionBehavior} says so, or the request was malformed or over the connection limit) or on
     * the idle timeout. Resets by {@link Fault.ResetAfter} are not counted; their emission logs say RESET.
     * Counted when the close is decided, so before the client can see it.
     */
    public long serverClosedConnections() {
        return closedByServer.get();
    }

    /** Of {@link #serverClosedConnections()}, those closed by the idle keep-alive timeout. */
    public long idleClosedConnections() {
        return idleClosed.get();
    }

    /** Requests answered 503 because the {@link ConnectionBehavior#slowStart()} had not passed yet. */
    public long slowStartRejections() {
        return slowStartRejections.get();
    }

    /** Emission logs of finished responses so far, by request index. */
    public List<EmissionLog> emissions() {
        List<EmissionLog> logs = new ArrayList<>(emissions);
        logs.sort(Comparator.comparingLong(EmissionLog::requestIndex));
        return logs;
    }

    /**
     * Waits until at least {@code count} logs exist. A log is published after the response's last write, so a
     * client can finish reading before the log of its request appears.
     */
    public List<EmissionLog> awaitEmissions(int count, Duration timeout)
            throws InterruptedException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (emissionSignal) {
            while (emissions.size() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException("expected " + count + " emission logs, have " + emissions.size());
                }
                TimeUnit.NANOSECONDS.timedWait(emissionSignal, left);
            }
        }
        return emissions();
    }

    public void clearEmissions() {
        emissions.clear();
    }

    /** Closes all connections, stops the event loops and frees the cache. */
    @Override
    public void close() {
        listener.close().syncUninterruptibly();
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        cache.close();
    }

    long nextRequestIndex() {
        return requests.getAndIncrement();
    }

    /** Whether the server still plays "loading the model"; counts the rejection when it does. */
    boolean rejectWhileStarting() {
        long slowStart = options.connection().slowStart().toNanos();
        if (slowStart == 0 || System.nanoTime() - startedNanos >= slowStart) {
            return false;
        }
        slowStartRejections.incrementAndGet();
        return true;
    }

    void closedOnPurpose(boolean idle) {
        closedByServer.incrementAndGet();
        if (idle) {
            idleClosed.incrementAndGet();
        }
    }

    boolean admitConnection() {
        accepted.incrementAndGet();
        if (connections.incrementAndGet() > options.maxConnections()) {
            connections.decrementAndGet();
            return false;
        }
        return true;
    }

    void leaveConnection() {
        connections.decrementAndGet();
    }

    ResponseCache cache() {
        return cache;
    }

    String modelsBody() {
        return modelsBody;
    }

    void record(EmissionLog log) {
        emissions.add(log);
        synchronized (emissionSignal) {
            emissionSignal.notifyAll();
        }
    }

    /** A cached response goes out in one write: every chunk shares that write's time. */
    void recordCached(GenerationWork work, ResponseCache.Entry entry, long writtenNanos) {
        int[] tokens = entry.chunkTokens();
        long[] times = new long[tokens.length];
        java.util.Arrays.fill(times, writtenNanos);
        record(new EmissionLog(work.index(), work.request().endpoint(), work.arrivalNanos(), work.startNanos(),
                0, 0, times, tokens, tokens.length, EmissionLog.Outcome.COMPLETED, true, work.request().promptTokens()));
    }
}
