package dev.servebench.testserver;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * Where the server listens and how much it accepts.
 *
 * @param host           a loopback address; the server never listens beyond this machine
 * @param port           0 for an ephemeral port
 * @param ioThreads      event loop threads; one keeps a 2-core machine free for the client under test
 * @param maxConnections connections beyond this are answered 503 and closed
 * @param maxBodyBytes   request bodies beyond this are answered 413
 * @param maxCacheBytes  budget for pre-rendered full-speed responses
 * @param spinNanos      how long before a paced emission the event loop busy-polls instead of sleeping;
 *                       0 uses plain timers (about 1 ms late, more on a loaded VM) and burns no CPU
 * @param connection     keep-alive, close and framing behaviour, idle timeout and slow start
 */
public record ServerOptions(String host, int port, int ioThreads, int maxConnections, int maxBodyBytes,
                            long maxCacheBytes, long spinNanos, ConnectionBehavior connection) {

    public static final String DEFAULT_HOST = "127.0.0.1";

    public ServerOptions {
        Objects.requireNonNull(host, "host");
        try {
            if (!InetAddress.getByName(host).isLoopbackAddress()) {
                throw new IllegalArgumentException("host (" + host + ") must be a loopback address");
            }
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("host (" + host + ") does not resolve", e);
        }
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("port (" + port + ") must be in 0..65535");
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads (" + ioThreads + ") must be >= 1");
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections (" + maxConnections + ") must be >= 1");
        }
        if (maxBodyBytes < 1) {
            throw new IllegalArgumentException("maxBodyBytes (" + maxBodyBytes + ") must be >= 1");
        }
        if (maxCacheBytes < 0) {
            throw new IllegalArgumentException("maxCacheBytes (" + maxCacheBytes + ") must be >= 0");
        }
        if (spinNanos < 0) {
            throw new IllegalArgumentException("spinNanos (" + spinNanos + ") must be >= 0");
        }
        Objects.requireNonNull(connection, "connection");
    }

    /**
     * 127.0.0.1, ephemeral port, 1 I/O thread, 1024 connections, 8 MiB bodies, 256 MiB cache, 2 ms spin,
     * {@link ConnectionBehavior#keepAlive()}.
     */
    public static ServerOptions defaults() {
        return new ServerOptions(DEFAULT_HOST, 0, 1, 1024, 8 << 20, 256L << 20, 2_000_000,
                ConnectionBehavior.keepAlive());
    }

    public ServerOptions withPort(int port) {
        return new ServerOptions(host, port, ioThreads, maxConnections, maxBodyBytes, maxCacheBytes, spinNanos,
                connection);
    }

    public ServerOptions withHost(String host) {
        return new ServerOptions(host, port, ioThreads, maxConnections, maxBodyBytes, maxCacheBytes, spinNanos,
                connection);
    }

    public ServerOptions withIoThreads(int ioThreads) {
        return new ServerOptions(host, port, ioThreads, maxConnections, maxBodyBytes, maxCacheBytes, spinNanos,
                connection);
    }

    public ServerOptions withMaxConnections(int maxConnections) {
        return new ServerOptions(host, port, ioThreads, maxConnections, maxBodyBytes, maxCacheBytes, spinNanos,
                connection);
    }

    public ServerOptions withSpinNanos(long spinNanos) {
        return new ServerOptions(host, port, ioThreads, maxConnections, maxBodyBytes, maxCacheBytes, spinNanos,
                connection);
    }

    public ServerOptions withMaxBodyBytes(int maxBodyBytes) {
        return new ServerOptions(host, port, ioThreads, maxConnections, maxBodyBytes, maxCacheBytes, spinNanos,
                connection);
    }

    public ServerOptions withConnection(ConnectionBehavior connection) {
        return new ServerOptions(host, port, ioThreads, maxConnections, maxBodyBytes, maxCacheBytes, spinNanos,
                connection);
    }
}
