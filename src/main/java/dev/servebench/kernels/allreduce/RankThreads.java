package dev.servebench.kernels.allreduce;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/** Runs one body per rank on its own platform thread and reports the first failure. */
final class RankThreads {

    private RankThreads() {
    }

    /**
     * Starts every body, waits for all, and rethrows the first exception. {@code onFailure} runs when a
     * body fails, so ranks blocked on a barrier or flag for the failed one are released instead of hanging.
     */
    static void runAll(String name, List<Runnable> bodies, Runnable onFailure) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int r = 0; r < bodies.size(); r++) {
            Runnable body = bodies.get(r);
            threads.add(Thread.ofPlatform().name(name + "-rank-" + r).start(() -> {
                try {
                    body.run();
                } catch (Throwable t) {
                    if (failure.compareAndSet(null, t)) {
                        onFailure.run();
                    }
                }
            }));
        }
        boolean interrupted = false;
        for (Thread thread : threads) {
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true; // the ranks cannot be abandoned mid-collective; finish joining
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        Throwable first = failure.get();
        if (first instanceof RuntimeException e) {
            throw e;
        }
        if (first instanceof Error e) {
            throw e;
        }
        if (first != null) {
            throw new IllegalStateException(first);
        }
    }
}
