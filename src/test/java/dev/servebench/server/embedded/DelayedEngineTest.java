package dev.servebench.server.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class DelayedEngineTest {

    /** Emits max_tokens tokens as fast as it can, from its own thread, like the real dispatcher. */
    static final class BurstEngine implements InferenceEngine {
        final ExecutorService dispatcher = Executors.newSingleThreadExecutor(
                r -> Thread.ofPlatform().daemon().name("burst-dispatcher").unstarted(r));

        @Override
        public EngineInfo info() {
            return new EngineInfo("burst", 4, 4096, 2048);
        }

        @Override
        public int[] tokenize(String text) {
            return new int[] {5};
        }

        @Override
        public GenerationHandle submit(GenerationRequest request, TokenSink sink) {
            dispatcher.execute(() -> {
                for (int i = 0; i < request.maxTokens(); i++) {
                    sink.onToken(300 + i, "t" + i);
                }
                sink.onComplete(TokenSink.FinishReason.LENGTH, 2, request.maxTokens());
            });
            return () -> { };
        }

        @Override
        public EngineStats stats() {
            return new EngineStats(0, 0, 0, 0, 0);
        }

        @Override
        public void close() {
            dispatcher.shutdown();
        }
    }

    private static GenerationRequest request(int maxTokens) {
        return new GenerationRequest(new int[] {5}, maxTokens, 0, true, 0.0, Optional.of(1L));
    }

    @Test
    void everySinkGetsAllItsTokensInOrderThenItsEndFromTheDelayThread() throws Exception {
        AtomicLong order = new AtomicLong();
        try (DelayedEngine engine = new DelayedEngine(new BurstEngine(), TokenDelay.parse("50us"))) {
            List<RecordingSink> sinks = IntStream.range(0, 8).mapToObj(i -> new RecordingSink(order)).toList();
            sinks.forEach(sink -> engine.submit(request(300), sink));
            for (RecordingSink sink : sinks) {
                assertThat(sink.awaitEnd())
                        .isEqualTo(new RecordingSink.End.Completed(TokenSink.FinishReason.LENGTH, 2, 300));
                assertThat(sink.ids()).containsExactlyElementsOf(IntStream.range(300, 600).boxed().toList());
                assertThat(sink.threads()).containsOnly("token-delay");
            }
        }
    }

    @Test
    void aFixedDelayHoldsTheStreamBackByThatMuchPerToken() throws Exception {
        AtomicLong order = new AtomicLong();
        try (DelayedEngine engine = new DelayedEngine(new BurstEngine(), TokenDelay.parse("2ms"))) {
            RecordingSink sink = new RecordingSink(order);
            long start = System.nanoTime();
            engine.submit(request(100), sink);
            sink.awaitEnd();
            // A lower bound only: the scheduler never releases a token before its time (100 tokens, 99 gaps).
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(99 * 2 - 1));
            assertThat(sink.ids()).hasSize(100);
        }
    }
}
