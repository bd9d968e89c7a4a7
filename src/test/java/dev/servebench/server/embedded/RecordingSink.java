package dev.servebench.server.embedded;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Records what a generation delivered; every event gets a number from a counter shared across sinks. */
final class RecordingSink implements TokenSink {

    /** How the generation ended. */
    sealed interface End {
        record Completed(FinishReason reason, int promptTokens, int completionTokens) implements End {
        }

        record Failed(String message) implements End {
        }
    }

    private final AtomicLong clock;
    private final List<Integer> ids = new ArrayList<>();
    private final StringBuilder text = new StringBuilder();
    private final List<String> threads = new ArrayList<>();
    private final CompletableFuture<End> end = new CompletableFuture<>();
    private final CompletableFuture<Void> firstToken = new CompletableFuture<>();
    private volatile long firstTokenAt = -1;
    private volatile long endAt = -1;
    private int endCalls;

    RecordingSink(AtomicLong clock) {
        this.clock = clock;
    }

    @Override
    public synchronized void onToken(int tokenId, String piece) {
        if (ids.isEmpty()) {
            firstTokenAt = clock.incrementAndGet();
            firstToken.complete(null);
        }
        ids.add(tokenId);
        text.append(piece);
        threads.add(Thread.currentThread().getName());
    }

    @Override
    public synchronized void onComplete(FinishReason reason, int promptTokens, int completionTokens) {
        ended(new End.Completed(reason, promptTokens, completionTokens));
    }

    @Override
    public synchronized void onError(String message) {
        ended(new End.Failed(message));
    }

    private void ended(End value) {
        endCalls++;
        endAt = clock.incrementAndGet();
        threads.add(Thread.currentThread().getName());
        end.complete(value);
    }

    End awaitEnd() throws Exception {
        return end.get(60, TimeUnit.SECONDS);
    }

    void awaitFirstToken() throws Exception {
        firstToken.get(60, TimeUnit.SECONDS);
    }

    synchronized List<Integer> ids() {
        return List.copyOf(ids);
    }

    synchronized String text() {
        return text.toString();
    }

    synchronized List<String> threads() {
        return List.copyOf(threads);
    }

    synchronized int endCalls() {
        return endCalls;
    }

    long firstTokenAt() {
        return firstTokenAt;
    }

    long endAt() {
        return endAt;
    }
}
