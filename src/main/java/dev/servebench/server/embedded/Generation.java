package dev.servebench.server.embedded;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One submitted request. The handle side ({@link #cancel}) may be called from any thread; every other
 * field is touched only by the dispatcher thread.
 */
final class Generation implements GenerationHandle {

    final GenerationRequest request;
    final TokenSink sink;
    /** BOS followed by the request's prompt: what the native server evaluates. */
    final int[] promptWithBos;

    private final AtomicBoolean cancelRequested = new AtomicBoolean();
    private final Runnable wakeDispatcher;

    // Dispatcher-thread state.
    int taskId = -1;
    int generated;
    boolean sawEos;
    boolean ended;

    Generation(GenerationRequest request, TokenSink sink, int bosId, Runnable wakeDispatcher) {
        this.request = request;
        this.sink = sink;
        this.wakeDispatcher = wakeDispatcher;
        int[] prompt = request.prompt();
        promptWithBos = new int[prompt.length + 1];
        promptWithBos[0] = bosId;
        System.arraycopy(prompt, 0, promptWithBos, 1, prompt.length);
    }

    @Override
    public void cancel() {
        if (cancelRequested.compareAndSet(false, true)) {
            wakeDispatcher.run();
        }
    }

    boolean cancelRequested() {
        return cancelRequested.get();
    }

    boolean started() {
        return taskId >= 0;
    }
}
