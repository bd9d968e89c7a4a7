package dev.servebench.load;

/**
 * What the client itself spent during a load point, to show it was not the bottleneck.
 *
 * @param cpuNanos        CPU time of the whole client process (all threads, incl. JIT and GC)
 * @param wallNanos       wall time of the load point
 * @param bytesReceived   response bytes read from the network
 * @param eventsReceived  choice-bearing stream events ingested
 */
public record ClientUsage(long cpuNanos, long wallNanos, long bytesReceived, long eventsReceived) {
    public ClientUsage {
        if (cpuNanos < 0 || wallNanos < 0 || bytesReceived < 0 || eventsReceived < 0) {
            throw new IllegalArgumentException("client usage counters must be >= 0");
        }
    }

    /** Average number of cores the client process kept busy. */
    public double coresUsed() {
        return wallNanos == 0 ? 0.0 : (double) cpuNanos / wallNanos;
    }
}
