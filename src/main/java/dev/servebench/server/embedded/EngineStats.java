package dev.servebench.server.embedded;

/**
 * Engine counters exposed on /metrics.
 *
 * @param running                generations holding a slot
 * @param waiting                generations queued for a slot
 * @param promptTokensTotal      prompt tokens processed since start
 * @param generationTokensTotal  tokens generated since start
 * @param requestsFinishedTotal  generations ended (any reason) since start
 */
public record EngineStats(int running, int waiting, long promptTokensTotal, long generationTokensTotal,
                          long requestsFinishedTotal) {
    public EngineStats {
        if (running < 0 || waiting < 0 || promptTokensTotal < 0 || generationTokensTotal < 0 || requestsFinishedTotal < 0) {
            throw new IllegalArgumentException("engine counters must be >= 0");
        }
    }
}
