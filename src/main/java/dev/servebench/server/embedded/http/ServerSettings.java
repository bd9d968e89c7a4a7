package dev.servebench.server.embedded.http;

import java.time.Duration;
import java.util.Objects;

/**
 * Network settings and limits of the {@link EmbeddedServer}.
 *
 * @param host            address to bind; {@value #DEFAULT_HOST} by default so a benchmark box does not expose
 *                        an unauthenticated model server to its network by accident
 * @param port            TCP port, 0 for an ephemeral one (read it back with {@link EmbeddedServer#port()})
 * @param maxConnections  TCP connections served at once; further connections wait in the accept backlog.
 *                        Every stream holds one connection, so this also caps concurrent streams
 * @param maxRequestBytes largest request body; bigger ones get 413 before any parsing
 * @param readTimeout     how long reading a request body may take; a client that stalls mid-body has its
 *                        connection closed. Never applies while a response streams. (Idle keep-alive
 *                        connections are closed by Helidon's own idle sweep, after 5 minutes.)
 * @param shutdownGrace   how long {@link EmbeddedServer#close()} waits for aborted streams to write their
 *                        error event before the connections are closed under them
 */
public record ServerSettings(String host, int port, int maxConnections, long maxRequestBytes, Duration readTimeout,
                             Duration shutdownGrace) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    /** vLLM's default port, so that scripts written for it need no change. */
    public static final int DEFAULT_PORT = 8000;
    public static final int DEFAULT_MAX_CONNECTIONS = 1024;
    public static final long DEFAULT_MAX_REQUEST_BYTES = 1L << 20;
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(30);
    public static final Duration DEFAULT_SHUTDOWN_GRACE = Duration.ofSeconds(2);

    public ServerSettings {
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(readTimeout, "readTimeout");
        Objects.requireNonNull(shutdownGrace, "shutdownGrace");
        if (host.isBlank()) {
            throw new IllegalArgumentException("host (\"" + host + "\") must not be blank");
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port (" + port + ") must be in [0, 65535] (0 = ephemeral)");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections (" + maxConnections + ") must be >= 1");
        }
        if (maxRequestBytes < 1024) {
            throw new IllegalArgumentException("maxRequestBytes (" + maxRequestBytes + ") must be >= 1024");
        }
        if (readTimeout.isNegative() || readTimeout.isZero()) {
            throw new IllegalArgumentException("readTimeout (" + readTimeout + ") must be > 0");
        }
        if (shutdownGrace.isNegative()) {
            throw new IllegalArgumentException("shutdownGrace (" + shutdownGrace + ") must be >= 0");
        }
    }

    /** Loopback, port {@value #DEFAULT_PORT}, 1024 connections, 1 MiB bodies, 30 s read timeout, 2 s grace. */
    public static ServerSettings defaults() {
        return new ServerSettings(DEFAULT_HOST, DEFAULT_PORT, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_REQUEST_BYTES,
                DEFAULT_READ_TIMEOUT, DEFAULT_SHUTDOWN_GRACE);
    }

    public ServerSettings withHost(String newHost) {
        return new ServerSettings(newHost, port, maxConnections, maxRequestBytes, readTimeout, shutdownGrace);
    }

    public ServerSettings withPort(int newPort) {
        return new ServerSettings(host, newPort, maxConnections, maxRequestBytes, readTimeout, shutdownGrace);
    }

    public ServerSettings withMaxConnections(int newMax) {
        return new ServerSettings(host, port, newMax, maxRequestBytes, readTimeout, shutdownGrace);
    }

    public ServerSettings withMaxRequestBytes(long newMax) {
        return new ServerSettings(host, port, maxConnections, newMax, readTimeout, shutdownGrace);
    }

    public ServerSettings withReadTimeout(Duration newTimeout) {
        return new ServerSettings(host, port, maxConnections, maxRequestBytes, newTimeout, shutdownGrace);
    }

    public ServerSettings withShutdownGrace(Duration newGrace) {
        return new ServerSettings(host, port, maxConnections, maxRequestBytes, readTimeout, newGrace);
    }
}
