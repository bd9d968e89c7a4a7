package dev.servebench.load;

/**
 * The client's connections during one load point, to show that reconnecting never hid inside the numbers.
 *
 * @param openedBeforeStart connections opened before the load point's clock started (not charged to it)
 * @param openedDuring      connections opened while it ran (a server that closes connections, or requests
 *                          beyond the pre-opened ones)
 * @param staleRetries      requests re-sent on a fresh connection because their pooled one died before any
 *                          response byte (a server closing idle keep-alive connections): not server failures
 * @param staleSkipped      idle pooled connections found closed and skipped before a request was written
 */
public record ConnectionCounts(long openedBeforeStart, long openedDuring, long staleRetries, long staleSkipped) {
    public ConnectionCounts {
        if (openedBeforeStart < 0 || openedDuring < 0 || staleRetries < 0 || staleSkipped < 0) {
            throw new IllegalArgumentException("connection counts must be >= 0");
        }
    }
}
