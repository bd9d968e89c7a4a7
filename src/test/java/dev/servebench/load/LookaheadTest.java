package dev.servebench.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestSource;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The look-ahead hands every request out exactly once with its own index, however takers interleave. */
class LookaheadTest {

    private static RequestSource source(int size, AtomicInteger built) {
        return RequestSource.lazy(size, i -> {
            built.incrementAndGet();
            return new PreparedRequest(i, ("{\"i\":" + i + "}").getBytes(StandardCharsets.UTF_8), 1, 1);
        });
    }

    @Test
    void threeThreadsTakingInterleavedGetEachRequestOnce() throws Exception {
        AtomicInteger built = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        ConcurrentLinkedQueue<Integer> seen = new ConcurrentLinkedQueue<>();
        try (Lookahead lookahead = new Lookahead(source(20_000, built), 16, t -> { throw new AssertionError(t); })) {
            assertThat(built.get()).as("the first window is prepared before anything is taken").isEqualTo(16);
            List<Thread> takers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                takers.add(Thread.ofPlatform().start(() -> {
                    for (int i; (i = next.getAndIncrement()) < 20_000; ) {
                        PreparedRequest request = lookahead.take(i);
                        assertThat(request.index()).isEqualTo(i);
                        seen.add(i);
                    }
                }));
            }
            for (Thread taker : takers) {
                taker.join();
            }
        }
        assertThat(seen).hasSize(20_000).doesNotHaveDuplicates();
    }

    @Test
    void aFailingPreparationIsReportedAndLaterRequestsAreStillServed() {
        AtomicReference<Throwable> reported = new AtomicReference<>();
        RequestSource failing = RequestSource.lazy(100, i -> {
            if (i == 50) {
                throw new IllegalStateException("cannot build request 50");
            }
            return new PreparedRequest(i, new byte[] {'{', '}'}, 1, 1);
        });
        // a slow report: a taker released before the error is in the slot would find the slot empty
        Consumer<Throwable> slowReport = t -> {
            LockSupport.parkNanos(100_000_000);
            reported.set(t);
        };
        try (Lookahead lookahead = new Lookahead(failing, 8, slowReport)) {
            for (int i = 0; i < 50; i++) {
                assertThat(lookahead.take(i).index()).isEqualTo(i);
            }
            assertThat(lookahead.take(70).index()).isEqualTo(70);
        }
        assertThat(reported.get()).hasMessage("cannot build request 50");
    }
}
