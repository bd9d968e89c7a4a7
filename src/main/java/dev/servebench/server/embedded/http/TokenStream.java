package dev.servebench.server.embedded.http;

import dev.servebench.server.embedded.GenerationHandle;
import dev.servebench.server.embedded.TokenSink;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The hand-off between the engine's dispatcher thread and one HTTP handler. The dispatcher only appends to an
 * unbounded queue (bounded in practice by max_tokens), so it never waits for a slow or dead client; the
 * handler, a virtual thread, takes the events and does all the writing.
 */
final class TokenStream implements TokenSink {

    /** What the handler takes; a stream ends with exactly one {@link Finished} or {@link Failed} it acts on. */
    sealed interface Event permits Token, Finished, Failed {}

    record Token(String text) implements Event {}

    record Finished(FinishReason reason, int completionTokens) implements Event {}

    /** @param shutdown whether the server's stop caused it (503 rather than 500 for a non-streaming request) */
    record Failed(String message, boolean shutdown) implements Event {}

    private final LinkedBlockingQueue<Event> queue = new LinkedBlockingQueue<>();
    private final Object lock = new Object();
    private GenerationHandle handle;
    private boolean cancelled;

    @Override
    public void onToken(int tokenId, String text) {
        queue.add(new Token(text == null ? "" : text));
    }

    @Override
    public void onComplete(FinishReason reason, int promptTokens, int completionTokens) {
        queue.add(new Finished(reason, completionTokens));
    }

    @Override
    public void onError(String message) {
        queue.add(new Failed(message == null ? "engine error" : message, false));
    }

    /** Blocks the (virtual) handler thread, which unmounts from its carrier, until the next event. */
    Event take() throws InterruptedException {
        return queue.take();
    }

    /** Records the handle; cancels at once when {@link #cancel()} came before the engine returned it. */
    void attach(GenerationHandle generation) {
        boolean cancelNow;
        synchronized (lock) {
            handle = generation;
            cancelNow = cancelled;
        }
        if (cancelNow) {
            generation.cancel();
        }
    }

    /** Frees the slot (client gone, or server stopping); the engine's CANCELLED completion is then ignored. */
    void cancel() {
        GenerationHandle h;
        synchronized (lock) {
            cancelled = true;
            h = handle;
        }
        if (h != null) {
            h.cancel();
        }
    }

    /** Server stop: the handler writes {@code message} as the stream's error event and ends the response. */
    void abort(String message) {
        queue.add(new Failed(message, true));
        cancel();
    }
}
