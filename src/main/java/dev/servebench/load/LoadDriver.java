package dev.servebench.load;

import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestSource;
import dev.servebench.client.StreamingClient;
import dev.servebench.record.RecordStore;
import dev.servebench.record.RequestRecord;
import dev.servebench.workload.Tokenizer;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Runs one load point: sends each request at its intended time (open loop) or as soon as a slot is free
 * (closed loop: every intended time 0 and a concurrency cap), never more than {@code maxConcurrency} at
 * once, and collects one record per request.
 *
 * <p>Concurrency notes. Requests become <em>ready</em> when they are due; the arrival thread pushes them
 * onto a queue, and whoever frees or finds a slot (the arrival thread, or an event loop finishing a
 * request) dispatches from it. Slots are tokens in a queue, taken before a request is, so the cap is
 * never exceeded and no request waits while a slot is free. The intended
 * schedule is absolute (offsets from the start), so a late wake-up is caught up, not carried forward.
 *
 * <p>With a client tokenizer, every successful request's generated text is re-counted by an
 * {@link OutputRetokenizer} off the event loops: its slot is freed when the response ends, its record
 * reaches the store and the sink once counted, and the load point ends when every record has.
 */
public final class LoadDriver {

    private final StreamingClient client;
    private final Optional<? extends Tokenizer> retokenizer;

    public LoadDriver(StreamingClient client) {
        this(client, Optional.empty());
    }

    /** @param retokenizer the client tokenizer that re-counts each successful request's generated text, if any */
    public LoadDriver(StreamingClient client, Optional<? extends Tokenizer> retokenizer) {
        this.client = Objects.requireNonNull(client, "client");
        this.retokenizer = Objects.requireNonNull(retokenizer, "retokenizer");
    }

    public StreamingClient client() {
        return client;
    }

    /** {@link #run(RequestSource, long[], int, Consumer, LoadProgress, RunLimits)} without a time limit. */
    public LoadPointResult run(List<PreparedRequest> requests, long[] intendedOffsets, int maxConcurrency,
                               Consumer<RequestRecord> sink, LoadProgress progress)
            throws InterruptedException, InternalRunError {
        return run(RequestSource.of(requests), intendedOffsets, maxConcurrency, sink, progress, RunLimits.NONE);
    }

    /** {@link #run(RequestSource, long[], int, Consumer, LoadProgress, RunLimits)} with prepared requests. */
    public LoadPointResult run(List<PreparedRequest> requests, long[] intendedOffsets, int maxConcurrency,
                               Consumer<RequestRecord> sink, LoadProgress progress, RunLimits limits)
            throws InterruptedException, InternalRunError {
        return run(RequestSource.of(requests), intendedOffsets, maxConcurrency, sink, progress, limits);
    }

    /**
     * @param requests        requests in dispatch order (their index is their position); a source that builds
     *                        them is read a bounded window ahead of dispatch on a thread of its own
     * @param intendedOffsets intended send time of each request in nanoseconds from the start, non-decreasing
     * @param maxConcurrency  cap on requests in flight; 0 = no cap
     * @param sink            receives each record as its request finishes (from network threads)
     * @param limits          when to cut the load point short
     * @throws InternalRunError when the client itself failed (an {@link Error} such as OutOfMemoryError, or
     *                          an unexpected exception on one of its threads): requests in flight are cancelled
     *                          and the load point's result is not to be trusted
     */
    public LoadPointResult run(RequestSource requests, long[] intendedOffsets, int maxConcurrency,
                               Consumer<RequestRecord> sink, LoadProgress progress, RunLimits limits)
            throws InterruptedException, InternalRunError {
        if (requests.size() != intendedOffsets.length) {
            throw new IllegalArgumentException("requests (" + requests.size() + ") and intendedOffsets ("
                    + intendedOffsets.length + ") must have the same length");
        }
        if (maxConcurrency < 0) {
            throw new IllegalArgumentException("maxConcurrency (" + maxConcurrency + ") must be >= 0 (0 = no cap)");
        }
        Run run = new Run(requests, maxConcurrency, sink, progress);
        try {
            return measure(run, requests.size(), intendedOffsets, limits);
        } finally {
            run.close();
        }
    }

    private LoadPointResult measure(Run run, int size, long[] intendedOffsets, RunLimits limits)
            throws InterruptedException, InternalRunError {
        long cpuBefore = processCpuNanos();
        long bytesBefore = client.bytesReceived();
        long[] loopsBefore = client.eventLoopCpuNanos();
        NanoClock clock = client.clock();
        run.origin = clock.nanos();
        long deadline = limits.maxDuration().map(d -> run.origin + d.toNanos()).orElse(Long.MAX_VALUE);
        int pushed = 0;
        for (; pushed < size; pushed++) {
            long due = run.origin + intendedOffsets[pushed];
            if (due >= deadline || !waitUntil(clock, due, deadline)) {
                break;
            }
            run.ready.add(new Ready(pushed, intendedOffsets[pushed]));
            run.dispatch();
        }
        checkInternalError();
        if (pushed < size) {
            // Only the time limit stops the loop early now: wait for it, then send nothing more.
            waitUntil(clock, deadline, deadline);
            run.cut(size - pushed, cutReason(limits));
        }
        awaitAll(run, clock, deadline, limits);
        long wall = clock.nanos() - run.origin;
        long events = run.records.eventCount();
        long[] loopsAfter = client.eventLoopCpuNanos();
        long busiest = 0;
        for (int i = 0; i < loopsAfter.length; i++) {
            busiest = Math.max(busiest, loopsAfter[i] - (i < loopsBefore.length ? loopsBefore[i] : 0));
        }
        ClientUsage usage = new ClientUsage(Math.max(0, processCpuNanos() - cpuBefore), wall,
                client.bytesReceived() - bytesBefore, events, busiest, client.transport());
        Optional<LoadPointCut> cut = run.cut ? Optional.of(new LoadPointCut(limits.maxDuration().orElseThrow(),
                run.unsent.get(), run.cancelledAtCut)) : Optional.empty();
        return new LoadPointResult(run.records, run.records.maxEndNanos(), usage, run.origin, cut);
    }

    /**
     * Waits for every sent request to end, watching for the client's internal errors and the time limit:
     * the run ends within a watch interval of either, whatever the server does.
     */
    private void awaitAll(Run run, NanoClock clock, long deadline, RunLimits limits)
            throws InterruptedException, InternalRunError {
        while (!run.allDone.await(WATCH_INTERVAL_MILLIS, TimeUnit.MILLISECONDS)) {
            checkInternalError();
            if (clock.nanos() >= deadline) {
                if (!run.cut) {
                    run.cut(0, cutReason(limits));
                }
                // Repeated: a request dispatched by a racing thread just before the cut is cancelled too.
                client.cancelInFlight(cutReason(limits));
            }
        }
        checkInternalError();
    }

    private void checkInternalError() throws InternalRunError {
        Throwable error = client.internalError();
        if (error != null) {
            client.cancelInFlight("the run stopped on an internal error");
            throw new InternalRunError(error);
        }
    }

    /** Sleeps until {@code due}; returns false when the deadline or an internal error came first. */
    private boolean waitUntil(NanoClock clock, long due, long deadline) {
        long remaining;
        while ((remaining = due - clock.nanos()) > 0) {
            if (client.internalError() != null || clock.nanos() >= deadline) {
                return false;
            }
            LockSupport.parkNanos(Math.min(remaining, TimeUnit.MILLISECONDS.toNanos(WATCH_INTERVAL_MILLIS)));
        }
        return client.internalError() == null;
    }

    private static String cutReason(RunLimits limits) {
        return "load point cut at its time limit (" + limits.describeMaxDuration() + ")";
    }

    /** How often the waiting driver checks for internal errors and the time limit. */
    private static final long WATCH_INTERVAL_MILLIS = 50;

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : 0L;
    }

    private record Ready(int index, long intendedNanos) {}

    /** Requests prepared ahead: at least two waves of the cap, everything when nothing caps dispatch. */
    private static int lookaheadWindow(int size, int cap) {
        return cap == 0 ? size : Math.max(2 * cap, 4_096);
    }

    private final class Run {
        final Queue<Ready> ready = new ConcurrentLinkedQueue<>();
        /** Free concurrency slots, each holding the time it was freed (Long.MIN_VALUE: never used). */
        final Queue<Long> freeSlots = new ConcurrentLinkedQueue<>();
        /**
         * Not closed if the run is interrupted: requests still in flight append to it afterwards. Its spill
         * file is unlinked from the start, so an abandoned store leaves nothing on disk by name.
         */
        final RecordStore records = new RecordStore();
        final AtomicInteger finished = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();
        final CountDownLatch allDone;
        final int total;
        final boolean capped;
        final Consumer<RequestRecord> sink;
        final LoadProgress progress;
        final AtomicInteger unsent = new AtomicInteger();
        volatile long origin;
        volatile boolean cut;
        int cancelledAtCut;

        final RequestSource source;
        final Lookahead lookahead;
        /** Null without a client tokenizer: the text is then never kept. */
        final OutputRetokenizer counter;

        Run(RequestSource source, int cap, Consumer<RequestRecord> sink, LoadProgress progress) {
            this(source.size(), cap, sink, progress, source);
        }

        void close() {
            if (lookahead != null) {
                lookahead.close();
            }
            if (counter != null) {
                counter.close();
            }
        }

        PreparedRequest request(int index) {
            return lookahead == null ? source.prepare(index) : lookahead.take(index);
        }

        private Run(int total, int cap, Consumer<RequestRecord> sink, LoadProgress progress, RequestSource source) {
            this.source = source;
            this.lookahead = source.prepared() ? null
                    : new Lookahead(source, lookaheadWindow(total, cap), client::reportInternalError);
            this.total = total;
            this.capped = cap > 0;
            this.sink = sink;
            this.progress = progress;
            this.counter = retokenizer.map(t -> new OutputRetokenizer(t, client::reportInternalError)).orElse(null);
            this.allDone = new CountDownLatch(total);
            for (int i = 0; i < cap; i++) {
                freeSlots.add(Long.MIN_VALUE);
            }
        }

        /**
         * Pairs ready requests with free slots and sends them. A request is ready at the later of its
         * intended time and the time its slot was freed, whichever thread ends up sending it. A slot
         * taken without a request to go with it is put back and the queue re-checked, so a request
         * queued meanwhile by another thread (which found no slot) is never stranded.
         */
        void dispatch() {
            while (true) {
                Long slotFreedAt = capped ? freeSlots.poll() : Long.valueOf(Long.MIN_VALUE);
                if (slotFreedAt == null) {
                    return;
                }
                Ready next = ready.poll();
                if (next == null || cut) {
                    if (capped) {
                        freeSlots.add(slotFreedAt);
                    }
                    if (next != null) {
                        neverSent(1);
                        continue;
                    }
                    if (ready.isEmpty()) {
                        return;
                    }
                    continue;
                }
                long readyAt = Math.max(next.intendedNanos(), slotFreedAt);
                if (counter == null) {
                    client.send(request(next.index()), origin, next.intendedNanos(), readyAt, this::onFinished);
                } else {
                    client.send(request(next.index()), origin, next.intendedNanos(), readyAt, true, this::onFinished);
                }
            }
        }

        /**
         * Stops sending: {@code notPushed} requests that never became due and every request still waiting
         * for a slot are counted as not sent, and every request in flight is cancelled.
         */
        void cut(int notPushed, String reason) {
            cut = true;
            neverSent(notPushed);
            int drained = 0;
            while (ready.poll() != null) {
                drained++;
            }
            neverSent(drained);
            cancelledAtCut = client.inFlightCount();
            client.cancelInFlight(reason);
        }

        private void neverSent(int count) {
            for (int i = 0; i < count; i++) {
                unsent.incrementAndGet();
                allDone.countDown();
            }
        }

        private void onFinished(RequestRecord record) {
            try {
                keep(record);
            } finally {
                freeSlot();
                counted(record);
                dispatch();
            }
        }

        /** A request that ended with its generated text: its slot goes back now, its record once counted. */
        private void onFinished(RequestRecord record, String generatedText) {
            if (generatedText == null) {
                onFinished(record);
                return;
            }
            freeSlot();
            dispatch();
            counter.submit(record, generatedText, retokenized -> {
                try {
                    keep(retokenized);
                } finally {
                    counted(retokenized);
                }
            });
        }

        private void keep(RequestRecord record) {
            // Callers count the request in a finally: a store that cannot spill must not leave the run waiting.
            records.append(record);
            sink.accept(record);
        }

        private void freeSlot() {
            if (capped) {
                freeSlots.add(client.clock().nanos() - origin);
            }
        }

        private void counted(RequestRecord record) {
            int failures = record.succeeded() ? failed.get() : failed.incrementAndGet();
            progress.update(finished.incrementAndGet(), failures, total);
            allDone.countDown();
        }
    }
}
