package dev.servebench.load;

import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.StreamingClient;
import dev.servebench.record.RecordStore;
import dev.servebench.record.RequestRecord;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Objects;
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
 */
public final class LoadDriver {

    private final StreamingClient client;

    public LoadDriver(StreamingClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    public StreamingClient client() {
        return client;
    }

    /**
     * @param requests        requests in dispatch order (their index is their position)
     * @param intendedOffsets intended send time of each request in nanoseconds from the start, non-decreasing
     * @param maxConcurrency  cap on requests in flight; 0 = no cap
     * @param sink            receives each record as its request finishes (from network threads)
     */
    public LoadPointResult run(List<PreparedRequest> requests, long[] intendedOffsets, int maxConcurrency,
                               Consumer<RequestRecord> sink, LoadProgress progress) throws InterruptedException {
        if (requests.size() != intendedOffsets.length) {
            throw new IllegalArgumentException("requests (" + requests.size() + ") and intendedOffsets ("
                    + intendedOffsets.length + ") must have the same length");
        }
        if (maxConcurrency < 0) {
            throw new IllegalArgumentException("maxConcurrency (" + maxConcurrency + ") must be >= 0 (0 = no cap)");
        }
        Run run = new Run(requests.size(), maxConcurrency, sink, progress);
        long cpuBefore = processCpuNanos();
        long bytesBefore = client.bytesReceived();
        long[] loopsBefore = client.eventLoopCpuNanos();
        NanoClock clock = client.clock();
        run.origin = clock.nanos();
        for (int i = 0; i < requests.size(); i++) {
            long due = run.origin + intendedOffsets[i];
            waitUntil(clock, due);
            run.ready.add(new Ready(requests.get(i), intendedOffsets[i]));
            run.dispatch();
        }
        run.allDone.await();
        long wall = clock.nanos() - run.origin;
        long events = run.records.eventCount();
        long[] loopsAfter = client.eventLoopCpuNanos();
        long busiest = 0;
        for (int i = 0; i < loopsAfter.length; i++) {
            busiest = Math.max(busiest, loopsAfter[i] - (i < loopsBefore.length ? loopsBefore[i] : 0));
        }
        ClientUsage usage = new ClientUsage(Math.max(0, processCpuNanos() - cpuBefore), wall,
                client.bytesReceived() - bytesBefore, events, busiest);
        return new LoadPointResult(run.records, run.records.maxEndNanos(), usage, run.origin);
    }

    private static void waitUntil(NanoClock clock, long due) {
        long remaining;
        while ((remaining = due - clock.nanos()) > 0) {
            LockSupport.parkNanos(remaining);
        }
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : 0L;
    }

    private record Ready(PreparedRequest request, long intendedNanos) {}

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
        volatile long origin;

        Run(int total, int cap, Consumer<RequestRecord> sink, LoadProgress progress) {
            this.total = total;
            this.capped = cap > 0;
            this.sink = sink;
            this.progress = progress;
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
                if (next == null) {
                    if (capped) {
                        freeSlots.add(slotFreedAt);
                    }
                    if (ready.isEmpty()) {
                        return;
                    }
                    continue;
                }
                long readyAt = Math.max(next.intendedNanos(), slotFreedAt);
                client.send(next.request(), origin, next.intendedNanos(), readyAt, this::onFinished);
            }
        }

        private void onFinished(RequestRecord record) {
            int failures = record.succeeded() ? failed.get() : failed.incrementAndGet();
            try {
                // Inside the try: a store that cannot spill must not leave the run waiting for this request.
                records.append(record);
                sink.accept(record);
            } finally {
                if (capped) {
                    freeSlots.add(client.clock().nanos() - origin);
                }
                progress.update(finished.incrementAndGet(), failures, total);
                allDone.countDown();
                dispatch();
            }
        }
    }
}
