package dev.servebench.server.embedded.http;

import dev.servebench.server.embedded.EngineInfo;
import dev.servebench.server.embedded.EngineStats;
import dev.servebench.server.embedded.GenerationHandle;
import dev.servebench.server.embedded.GenerationRequest;
import dev.servebench.server.embedded.InferenceEngine;
import dev.servebench.server.embedded.TokenSink;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A fake engine that behaves like LlamaEngine as the contract describes it: one dispatcher thread calls every
 * sink; at most {@code slots} generations run, the rest queue; each dispatcher step gives every running
 * generation one token (token j reads {@code " t<j>"}) and then sleeps {@code tokenInterval}. A generation
 * ends with LENGTH at max_tokens, or with STOP after {@code stopAfter} tokens unless ignore_eos.
 */
final class ScriptedEngine implements InferenceEngine {

    /** Text tokenizer: one token per whitespace-separated word; the ids are stable but meaningless. */
    static int[] words(String text, int vocab) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return new int[0];
        }
        return java.util.Arrays.stream(trimmed.split("\\s+")).mapToInt(w -> 3 + Math.floorMod(w.hashCode(), vocab - 3)).toArray();
    }

    private final class Generation implements GenerationHandle {
        final GenerationRequest request;
        final TokenSink sink;
        volatile boolean cancelRequested;
        int emitted;

        Generation(GenerationRequest request, TokenSink sink) {
            this.request = request;
            this.sink = sink;
        }

        @Override
        public void cancel() {
            cancelRequested = true;
            LockSupport.unpark(dispatcher);
        }
    }

    private final EngineInfo info;
    private final long intervalNanos;
    private final int stopAfter;
    private final ConcurrentLinkedQueue<Generation> submitted = new ConcurrentLinkedQueue<>();
    private final ArrayDeque<Generation> waiting = new ArrayDeque<>();
    private final List<Generation> running = new ArrayList<>();
    private final Thread dispatcher;
    private volatile boolean closed;
    private volatile int runningCount;
    private final AtomicInteger waitingCount = new AtomicInteger();
    private final AtomicLong promptTokens = new AtomicLong();
    private final AtomicLong generationTokens = new AtomicLong();
    private final AtomicLong finished = new AtomicLong();
    /** Test observations. */
    final AtomicInteger cancels = new AtomicInteger();
    final AtomicInteger maxRunning = new AtomicInteger();
    final AtomicInteger maxWaiting = new AtomicInteger();
    final List<String> tokenized = new CopyOnWriteArrayList<>();
    final List<Thread> sinkThreads = new CopyOnWriteArrayList<>();

    ScriptedEngine(int slots, int contextPerSlot, Duration tokenInterval) {
        this(slots, contextPerSlot, tokenInterval, Integer.MAX_VALUE);
    }

    ScriptedEngine(int slots, int contextPerSlot, Duration tokenInterval, int stopAfter) {
        this.info = new EngineInfo("scripted-model", slots, contextPerSlot, 2048);
        this.intervalNanos = tokenInterval.toNanos();
        this.stopAfter = stopAfter;
        this.dispatcher = Thread.ofPlatform().name("scripted-dispatcher").daemon().start(this::dispatch);
    }

    @Override
    public EngineInfo info() {
        return info;
    }

    @Override
    public int[] tokenize(String text) {
        tokenized.add(text);
        return words(text, info.vocabSize());
    }

    @Override
    public GenerationHandle submit(GenerationRequest request, TokenSink sink) {
        if (closed) {
            throw new IllegalStateException("engine is closed");
        }
        if (request.promptLength() == 0) {
            throw new IllegalArgumentException("prompt must not be empty");
        }
        int needed = request.promptLength() + 1 + request.maxTokens();
        if (needed > info.contextPerSlot()) {
            throw new IllegalArgumentException("prompt (" + (request.promptLength() + 1) + " tokens incl. BOS) + max_tokens ("
                    + request.maxTokens() + ") = " + needed + " exceeds the slot context of " + info.contextPerSlot() + " tokens");
        }
        Generation g = new Generation(request, sink);
        waitingCount.incrementAndGet();
        submitted.add(g);
        LockSupport.unpark(dispatcher);
        return g;
    }

    @Override
    public EngineStats stats() {
        return new EngineStats(runningCount, waitingCount.get(), promptTokens.get(), generationTokens.get(), finished.get());
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(dispatcher);
        try {
            dispatcher.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void dispatch() {
        while (!closed) {
            for (Generation g; (g = submitted.poll()) != null; ) {
                waiting.add(g);
            }
            dropCancelled(waiting.iterator(), true);
            while (running.size() < info.slots() && !waiting.isEmpty()) {
                Generation g = waiting.poll();
                waitingCount.decrementAndGet();
                promptTokens.addAndGet(g.request.promptLength() + 1);
                running.add(g);
            }
            maxRunning.accumulateAndGet(running.size(), Math::max);
            maxWaiting.accumulateAndGet(waiting.size(), Math::max);
            runningCount = running.size();
            dropCancelled(running.iterator(), false);
            for (Iterator<Generation> it = running.iterator(); it.hasNext(); ) {
                Generation g = it.next();
                recordSinkThread();
                g.sink.onToken(100 + g.emitted, " t" + g.emitted);
                g.emitted++;
                generationTokens.incrementAndGet();
                TokenSink.FinishReason end = g.emitted >= g.request.maxTokens() ? TokenSink.FinishReason.LENGTH
                        : g.emitted >= Math.max(stopAfter, g.request.minTokens()) && !g.request.ignoreEos()
                        ? TokenSink.FinishReason.STOP : null;
                if (end != null) {
                    it.remove();
                    finished.incrementAndGet();
                    g.sink.onComplete(end, g.request.promptLength() + 1, g.emitted);
                }
            }
            runningCount = running.size();
            LockSupport.parkNanos(running.isEmpty() ? TimeUnit.MILLISECONDS.toNanos(50) : intervalNanos);
        }
        for (Generation g : running) {
            g.sink.onError("engine closed");
        }
        for (Generation g : waiting) {
            g.sink.onError("engine closed");
        }
        for (Generation g; (g = submitted.poll()) != null; ) {
            g.sink.onError("engine closed");
        }
    }

    private void dropCancelled(Iterator<Generation> it, boolean queued) {
        while (it.hasNext()) {
            Generation g = it.next();
            if (g.cancelRequested) {
                it.remove();
                if (queued) {
                    waitingCount.decrementAndGet();
                }
                cancels.incrementAndGet();
                finished.incrementAndGet();
                g.sink.onComplete(TokenSink.FinishReason.CANCELLED, g.request.promptLength() + 1, g.emitted);
            }
        }
    }

    private void recordSinkThread() {
        if (sinkThreads.isEmpty() || sinkThreads.getLast() != Thread.currentThread()) {
            sinkThreads.add(Thread.currentThread());
        }
    }
}
