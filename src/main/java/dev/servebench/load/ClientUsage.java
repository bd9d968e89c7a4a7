package dev.servebench.load;

import dev.servebench.client.IoTransport;
import java.util.Objects;

/**
 * What the client itself spent during a load point, to show it was not the bottleneck.
 *
 * @param cpuNanos        CPU time of the whole client process (all threads, incl. JIT and GC)
 * @param wallNanos       wall time of the load point
 * @param bytesReceived   response bytes read from the network
 * @param eventsReceived  choice-bearing stream events ingested
 * @param busiestEventLoopCpuNanos CPU time of the busiest client event-loop thread: the one that would
 *                        pace the server first; excludes a server or engine running in the same JVM
 * @param ioTransport     the event loops' I/O transport: it shows in the tail of
 *                        the client's timing error (docs/client.md, "Transport")
 */
public record ClientUsage(long cpuNanos, long wallNanos, long bytesReceived, long eventsReceived,
                          long busiestEventLoopCpuNanos, IoTransport ioTransport) {
    public ClientUsage {
        if (cpuNanos < 0 || wallNanos < 0 || bytesReceived < 0 || eventsReceived < 0
                || busiestEventLoopCpuNanos < 0) {
            throw new IllegalArgumentException("client usage counters must be >= 0");
        }
        Objects.requireNonNull(ioTransport, "ioTransport");
    }

    /** Fraction of the load point's wall time the busiest event-loop thread was on a CPU. */
    public double busiestEventLoopBusy() {
        return wallNanos == 0 ? 0.0 : (double) busiestEventLoopCpuNanos / wallNanos;
    }

    /** Average number of cores the client process kept busy. */
    public double coresUsed() {
        return wallNanos == 0 ? 0.0 : (double) cpuNanos / wallNanos;
    }
}
