package dev.servebench.telemetry.counters;

import dev.servebench.server.embedded.EngineInfo;
import dev.servebench.server.embedded.EngineStats;
import dev.servebench.server.embedded.GenerationHandle;
import dev.servebench.server.embedded.GenerationRequest;
import dev.servebench.server.embedded.InferenceEngine;
import dev.servebench.server.embedded.TokenSink;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A fake engine for the embedded server: one dispatcher thread runs each generation to max_tokens, one
 * token per word of nothing in particular, and counts prompt tokens (BOS included), tokens and requests the
 * way the real engine's stats do.
 */
final class CountingEngine implements InferenceEngine {

    private final ExecutorService dispatcher = Executors.newSingleThreadExecutor(
            r -> Thread.ofPlatform().daemon().name("counting-engine").unstarted(r));
    private final AtomicLong promptTokens = new AtomicLong();
    private final AtomicLong generationTokens = new AtomicLong();
    private final AtomicLong finished = new AtomicLong();

    @Override
    public EngineInfo info() {
        return new EngineInfo("counting-model", 4, 4096, 2048);
    }

    @Override
    public int[] tokenize(String text) {
        return Arrays.stream(text.strip().split("\\s+")).filter(w -> !w.isEmpty()).mapToInt(w -> 3 + (w.hashCode() & 1023))
                .toArray();
    }

    @Override
    public GenerationHandle submit(GenerationRequest request, TokenSink sink) {
        dispatcher.execute(() -> {
            int prompt = request.promptLength() + 1;
            promptTokens.addAndGet(prompt);
            for (int i = 0; i < request.maxTokens(); i++) {
                generationTokens.incrementAndGet();
                sink.onToken(100 + i, " t" + i);
            }
            finished.incrementAndGet();
            sink.onComplete(TokenSink.FinishReason.LENGTH, prompt, request.maxTokens());
        });
        return () -> { };
    }

    @Override
    public EngineStats stats() {
        return new EngineStats(0, 0, promptTokens.get(), generationTokens.get(), finished.get());
    }

    @Override
    public void close() {
        dispatcher.shutdownNow();
    }
}
