package dev.servebench.server.embedded.http;

import java.time.Duration;

/** Polls an assertion until it holds (the project has no Awaitility); rethrows its last failure at the limit. */
final class Eventually {

    interface Check {
        void run() throws Exception;
    }

    private Eventually() {}

    static void within(Duration limit, Check check) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            try {
                check.run();
                return;
            } catch (AssertionError | Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(10);
            }
        }
    }

    static void until(Duration limit, java.util.function.BooleanSupplier condition) throws Exception {
        within(limit, () -> {
            if (!condition.getAsBoolean()) {
                throw new AssertionError("condition not met within " + limit);
            }
        });
    }
}
