package dev.servebench.server.embedded;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** Counters behind {@link EngineStats}: written by the dispatcher (and submit), read from anywhere. */
final class EngineCounters {

    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger waiting = new AtomicInteger();
    final AtomicLong promptTokens = new AtomicLong();
    final AtomicLong generationTokens = new AtomicLong();
    final AtomicLong requestsFinished = new AtomicLong();

    EngineStats snapshot() {
        return new EngineStats(Math.max(0, running.get()), Math.max(0, waiting.get()), promptTokens.get(),
                generationTokens.get(), requestsFinished.get());
    }
}
