package dev.servebench.server.embedded;

import de.kherud.llama.InferenceParameters;
import de.kherud.llama.LlamaBridge;
import de.kherud.llama.LlamaModel;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The single platform thread that drives every generation: it admits queued requests while slots are
 * free, then takes the running ones in turn and receives one result each.
 *
 * <p>Why one thread, and why round-robin: the native receive blocks until its task has a result, but
 * busy-waits while the shared result queue holds only other tasks' results. With a thread per stream
 * those spinners eat the decode threads' CPU. Here at most one receive is outstanding, and since
 * continuous batching gives every running task one token per decode step, a round consumes about one
 * step's results: the spin is limited to the gap between the first and the last result of a step.
 * Only tasks that hold a slot are ever received from (admission never exceeds the slot count), so a
 * receive always returns within a few steps. With nothing running, the thread parks on a condition.
 *
 * <p>Cancellation and shutdown are requests that this thread carries out between receives, so the
 * sinks see all calls from one thread, in order, and no native call races another on a task.
 */
final class Dispatcher implements Runnable {

    static final String SHUTTING_DOWN = "server shutting down";
    private static final System.Logger LOG = System.getLogger(Dispatcher.class.getName());

    private final LlamaModel model;
    private final EngineVocabulary vocabulary;
    private final int slots;
    private final EngineCounters counters;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition work = lock.newCondition();
    private final ArrayDeque<Generation> waiting = new ArrayDeque<>(); // guarded by lock
    private volatile boolean closing; // written under lock
    private final List<Generation> running = new ArrayList<>(); // dispatcher thread only

    Dispatcher(LlamaModel model, EngineVocabulary vocabulary, int slots, EngineCounters counters) {
        this.model = model;
        this.vocabulary = vocabulary;
        this.slots = slots;
        this.counters = counters;
    }

    /** Queues a generation; false once the engine is closing (then nothing was queued). */
    boolean enqueue(Generation generation) {
        lock.lock();
        try {
            if (closing) {
                return false;
            }
            waiting.add(generation);
            counters.waiting.incrementAndGet();
            work.signal();
            return true;
        } finally {
            lock.unlock();
        }
    }

    void wake() {
        lock.lock();
        try {
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Asks the thread to end every generation with {@link #SHUTTING_DOWN} and exit. */
    void stop() {
        lock.lock();
        try {
            closing = true;
            work.signal();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void run() {
        try {
            while (admitOrPark()) {
                receiveRound();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.DEBUG, "dispatcher failed", e);
        } finally {
            shutdown();
        }
    }

    /** Parks until there is work; starts queued generations on free slots. False when closing. */
    private boolean admitOrPark() throws InterruptedException {
        List<Generation> admitted = new ArrayList<>();
        List<Generation> cancelled = new ArrayList<>();
        lock.lock();
        try {
            while (!closing && running.isEmpty() && waiting.isEmpty()) {
                work.await();
            }
            if (closing) {
                return false;
            }
            for (Iterator<Generation> it = waiting.iterator(); it.hasNext(); ) {
                Generation g = it.next();
                if (g.cancelRequested()) {
                    it.remove();
                    cancelled.add(g);
                }
            }
            while (running.size() + admitted.size() < slots && !waiting.isEmpty()) {
                admitted.add(waiting.poll());
            }
            counters.waiting.set(waiting.size());
        } finally {
            lock.unlock();
        }
        cancelled.forEach(g -> complete(g, TokenSink.FinishReason.CANCELLED));
        admitted.forEach(this::start);
        return true;
    }

    private void start(Generation g) {
        GenerationRequest r = g.request;
        InferenceParameters params = new InferenceParameters("")
                .setNPredict(r.maxTokens())
                .setTemperature((float) r.temperature())
                // min_tokens has no native counterpart here: banning EOS for the whole generation keeps
                // the guarantee (at least min_tokens) at the price of running to max_tokens.
                .setIgnoreEos(r.ignoreEos() || r.minTokens() > 0);
        LlamaBridge.setPromptTokens(params, g.promptWithBos);
        LlamaBridge.setRaw(params, "logit_bias", vocabulary.logitBiasJson());
        // The server's seed is a u32 whose all-ones value means "random"; fold any long into the rest.
        r.seed().ifPresent(seed -> LlamaBridge.setRaw(params, "seed", Long.toString(Math.floorMod(seed, 0xFFFF_FFFFL))));
        try {
            g.taskId = LlamaBridge.request(model, params);
        } catch (RuntimeException e) {
            fail(g, "generation could not start: " + e.getMessage());
            return;
        }
        counters.promptTokens.addAndGet(g.promptWithBos.length);
        counters.running.incrementAndGet();
        running.add(g);
    }

    /** One receive per running generation, in admission order. */
    private void receiveRound() {
        for (int i = 0; i < running.size() && !closing; ) {
            if (step(running.get(i))) {
                i++;
            } else {
                running.remove(i);
            }
        }
    }

    /** Advances one generation by one native result; false when it ended. */
    private boolean step(Generation g) {
        if (g.cancelRequested()) {
            cancelNative(g);
            complete(g, TokenSink.FinishReason.CANCELLED);
            return false;
        }
        LlamaBridge.Chunk chunk;
        try {
            chunk = LlamaBridge.receive(model, g.taskId);
        } catch (RuntimeException e) {
            fail(g, "generation failed: " + e.getMessage());
            return false;
        }
        // With streaming, the final result carries no text; deliver any defensively rather than drop it.
        if (!chunk.stop() || !chunk.text().isEmpty()) {
            deliver(g, chunk.text());
        }
        if (g.ended) {
            cancelNative(g);
            return false;
        }
        if (!chunk.stop()) {
            return true;
        }
        complete(g, g.sawEos || g.generated < g.request.maxTokens() ? TokenSink.FinishReason.STOP
                : TokenSink.FinishReason.LENGTH);
        return false;
    }

    private void deliver(Generation g, String text) {
        int id = vocabulary.idOf(text);
        g.sawEos |= id == vocabulary.eosId();
        g.generated++;
        counters.generationTokens.incrementAndGet();
        try {
            g.sink.onToken(id, text);
        } catch (RuntimeException e) {
            fail(g, "token sink failed: " + e);
        }
    }

    private void cancelNative(Generation g) {
        try {
            LlamaBridge.cancel(model, g.taskId);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "cancelling task " + g.taskId + " failed", e);
        }
    }

    private void complete(Generation g, TokenSink.FinishReason reason) {
        if (end(g)) {
            try {
                g.sink.onComplete(reason, g.promptWithBos.length, g.generated);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "token sink failed in onComplete", e);
            }
        }
    }

    private void fail(Generation g, String message) {
        if (end(g)) {
            try {
                g.sink.onError(message);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "token sink failed in onError", e);
            }
        }
    }

    private boolean end(Generation g) {
        if (g.ended) {
            return false;
        }
        g.ended = true;
        if (g.started()) {
            counters.running.decrementAndGet();
        }
        counters.requestsFinished.incrementAndGet();
        return true;
    }

    private void shutdown() {
        List<Generation> queued;
        lock.lock();
        try {
            closing = true;
            queued = new ArrayList<>(waiting);
            waiting.clear();
        } finally {
            lock.unlock();
        }
        for (Generation g : running) {
            cancelNative(g);
            fail(g, SHUTTING_DOWN);
        }
        running.clear();
        queued.forEach(g -> fail(g, SHUTTING_DOWN));
        counters.waiting.set(0);
    }
}
