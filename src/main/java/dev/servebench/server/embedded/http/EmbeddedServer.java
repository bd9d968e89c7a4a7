package dev.servebench.server.embedded.http;

import dev.servebench.server.embedded.InferenceEngine;
import io.helidon.http.DirectHandler;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The embedded OpenAI-compatible server: Helidon SE 4 (one virtual thread per request) in front of an
 * {@link InferenceEngine}. Endpoints: {@code POST /v1/completions}, {@code POST /v1/chat/completions},
 * {@code GET /v1/models}, {@code GET /health}, {@code GET /metrics} (see {@link ServerMetrics}).
 *
 * <p>The server does not own the engine: {@link #close()} ends the in-flight streams and stops listening, and
 * the caller closes the engine afterwards. Typical use by a command:
 *
 * <pre>{@code
 * try (InferenceEngine engine = …; EmbeddedServer server = EmbeddedServer.start(engine, settings)) {
 *     Runtime.getRuntime().addShutdownHook(new Thread(server::close));
 *     server.awaitShutdown();
 * }
 * }</pre>
 */
public final class EmbeddedServer implements AutoCloseable {

    private static final String SHUTDOWN_MESSAGE = "server is shutting down";

    private final WebServer webServer;
    private final InFlight inFlight;
    private final ReadDeadline deadline;
    private final ServerSettings settings;
    private final int port;
    private final AtomicBoolean closeStarted = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private EmbeddedServer(WebServer webServer, InFlight inFlight, ReadDeadline deadline, ServerSettings settings) {
        this.webServer = webServer;
        this.inFlight = inFlight;
        this.deadline = deadline;
        this.settings = settings;
        this.port = webServer.port(); // Helidon answers -1 once stopped
    }

    /**
     * Binds and starts serving; returns once the port is open.
     *
     * @throws IllegalStateException when the address cannot be bound (port in use, host not local)
     */
    public static EmbeddedServer start(InferenceEngine engine, ServerSettings settings) {
        Objects.requireNonNull(engine, "engine");
        Objects.requireNonNull(settings, "settings");
        InFlight inFlight = new InFlight();
        ReadDeadline deadline = new ReadDeadline(settings.readTimeout());
        ServerMetrics metrics = new ServerMetrics(engine);
        long started = System.currentTimeMillis() / 1000;
        DirectHandler direct = Endpoints.direct(metrics);
        WebServer webServer = WebServer.builder()
                .host(settings.host())
                .port(settings.port())
                .maxTcpConnections(settings.maxConnections())
                .maxPayloadSize(settings.maxRequestBytes())
                .connectionOptions(socket -> socket.tcpNoDelay(true)) // its readTimeout is not applied to accepted sockets
                .shutdownGracePeriod(settings.shutdownGrace())
                .directHandlers(handlers -> {
                    for (DirectHandler.EventType type : DirectHandler.EventType.values()) {
                        handlers.addHandler(type, direct);
                    }
                })
                .routing(routing -> routes(routing, engine, metrics, inFlight, deadline, started))
                .build()
                .start();
        if (!webServer.isRunning() || webServer.port() < 0) {
            // Helidon logs a failed bind (port in use, unknown host) and returns a stopped server
            webServer.stop();
            deadline.close();
            throw new IllegalStateException("cannot listen on " + settings.host() + ":" + settings.port()
                    + " (port in use or address not local; Helidon's cause is in servebench.log)");
        }
        return new EmbeddedServer(webServer, inFlight, deadline, settings);
    }

    private static void routes(HttpRouting.Builder routing, InferenceEngine engine, ServerMetrics metrics,
                               InFlight inFlight, ReadDeadline deadline, long started) {
        routing.addFilter((chain, req, res) -> {
                    try {
                        chain.proceed();
                    } finally {
                        metrics.httpRequest(req.path().path(), res.status().code());
                    }
                })
                .post(Api.COMPLETIONS.path(), Endpoints.guarded(new GenerationEndpoint(Api.COMPLETIONS, engine, metrics, inFlight, deadline)))
                .post(Api.CHAT.path(), Endpoints.guarded(new GenerationEndpoint(Api.CHAT, engine, metrics, inFlight, deadline)))
                .get("/v1/models", Endpoints.guarded(Endpoints.models(engine.info(), started)))
                .get("/health", Endpoints.guarded(Endpoints.health(engine, inFlight)))
                .get("/metrics", Endpoints.guarded(Endpoints.metrics(metrics)))
                // same paths, other methods: 405 (Helidon's default would be a plain-text 404)
                .any(Api.COMPLETIONS.path(), Endpoints.guarded(Endpoints.methodNotAllowed("POST")))
                .any(Api.CHAT.path(), Endpoints.guarded(Endpoints.methodNotAllowed("POST")))
                .any("/v1/models", Endpoints.guarded(Endpoints.methodNotAllowed("GET")))
                .any("/health", Endpoints.guarded(Endpoints.methodNotAllowed("GET")))
                .any("/metrics", Endpoints.guarded(Endpoints.methodNotAllowed("GET")))
                .any(Endpoints.guarded(Endpoints.notFound()));
    }

    /** The bound port (the ephemeral one when the settings asked for port 0); still answers after close. */
    public int port() {
        return port;
    }

    public ServerSettings settings() {
        return settings;
    }

    /** Whether {@link #close()} has begun (or finished). */
    public boolean isClosing() {
        return closeStarted.get();
    }

    /** Blocks until {@link #close()} has finished, e.g. from a shutdown hook. */
    public void awaitShutdown() throws InterruptedException {
        stopped.await();
    }

    /** Like {@link #awaitShutdown()}, with a limit; true when the server has stopped. */
    public boolean awaitShutdown(Duration limit) throws InterruptedException {
        return stopped.await(limit.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Stops: new generation requests get 503, every in-flight stream ends with an SSE error event and
     * {@code [DONE]} (a non-streaming request with 503), the generations are cancelled; after at most
     * {@link ServerSettings#shutdownGrace()} for those last writes Helidon closes the connections. Idempotent;
     * a concurrent second call waits for the first.
     */
    @Override
    public void close() {
        if (!closeStarted.compareAndSet(false, true)) {
            awaitStoppedUninterruptibly();
            return;
        }
        try {
            inFlight.abortAll(SHUTDOWN_MESSAGE);
            inFlight.awaitEmpty(settings.shutdownGrace());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            webServer.stop();
            deadline.close();
            stopped.countDown();
        }
    }

    private void awaitStoppedUninterruptibly() {
        boolean interrupted = false;
        while (true) {
            try {
                stopped.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
