package dev.servebench.server.embedded;

import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * An {@link InferenceEngine} whose tokens reach their sinks later, by a {@link TokenDelay}: the injected
 * slowdown of the gate's acceptance check. Every delayed call runs on one scheduler thread. Each
 * generation queues its calls, and each scheduled task runs the head of that queue rather than "its"
 * call: the scheduler may run two nearly simultaneous tasks in either order (each converts a deadline to
 * a delay at a slightly different instant), but a sink still sees its calls in order, from one thread,
 * as the engine contract promises.
 */
public final class DelayedEngine implements InferenceEngine {

    private final InferenceEngine engine;
    private final TokenDelay delay;
    private final LongSupplier clock;
    private final ScheduledThreadPoolExecutor scheduler;

    public DelayedEngine(InferenceEngine engine, TokenDelay delay) {
        this(engine, delay, System::nanoTime);
    }

    DelayedEngine(InferenceEngine engine, TokenDelay delay, LongSupplier clock) {
        this.engine = Objects.requireNonNull(engine, "engine");
        this.delay = Objects.requireNonNull(delay, "delay");
        this.clock = Objects.requireNonNull(clock, "clock");
        scheduler = new ScheduledThreadPoolExecutor(1,
                Thread.ofPlatform().name("token-delay").daemon(true).factory());
    }

    public TokenDelay delay() {
        return delay;
    }

    @Override
    public EngineInfo info() {
        return engine.info();
    }

    @Override
    public int[] tokenize(String text) {
        return engine.tokenize(text);
    }

    @Override
    public GenerationHandle submit(GenerationRequest request, TokenSink sink) {
        return engine.submit(request, new DelayedSink(Objects.requireNonNull(sink, "sink")));
    }

    @Override
    public EngineStats stats() {
        return engine.stats();
    }

    /** Closes the engine first (its sinks get their errors, delayed like the rest), then lets them drain. */
    @Override
    public void close() {
        try {
            engine.close();
        } finally {
            scheduler.shutdown();
            try {
                scheduler.awaitTermination(LlamaEngine.CLOSE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Called by the engine's dispatcher thread only, so its fields need no locking. */
    private final class DelayedSink implements TokenSink {
        private final TokenSink target;
        private final Queue<Runnable> pending = new ConcurrentLinkedQueue<>();
        private final long submittedNanos = clock.getAsLong();
        private int tokens;
        private long firstNanos;
        private long lastReleaseNanos = Long.MIN_VALUE;

        DelayedSink(TokenSink target) {
            this.target = target;
        }

        @Override
        public void onToken(int tokenId, String text) {
            long now = clock.getAsLong();
            if (tokens == 0) {
                firstNanos = now;
            }
            release(delay.releaseNanos(tokens++, now, firstNanos, submittedNanos), () -> target.onToken(tokenId, text));
        }

        @Override
        public void onComplete(FinishReason reason, int promptTokens, int completionTokens) {
            release(clock.getAsLong(), () -> target.onComplete(reason, promptTokens, completionTokens));
        }

        @Override
        public void onError(String message) {
            release(clock.getAsLong(), () -> target.onError(message));
        }

        private void release(long atNanos, Runnable call) {
            lastReleaseNanos = Math.max(lastReleaseNanos, atNanos);
            pending.add(call);
            try {
                scheduler.schedule(this::runNext, lastReleaseNanos - clock.getAsLong(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                runNext(); // closing: deliver now rather than lose the call
            }
        }

        private void runNext() {
            Runnable next = pending.poll();
            if (next != null) {
                next.run();
            }
        }
    }
}
