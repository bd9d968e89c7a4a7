package dev.servebench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.record.RequestRecord;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.workload.PromptRequest;
import dev.servebench.workload.Tokenizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The driver with a client tokenizer: counts off the event loop, slots freed before counting, failures stop the run. */
class RetokenizingDriverTest {

    /** Counts words; holds every count until released, to show that nothing waits for it but the record. */
    private static final class GatedWordCounter implements Tokenizer {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicReference<String> countingThread = new AtomicReference<>();

        @Override
        public int countPrompt(String text) {
            return countText(text);
        }

        @Override
        public int countText(String text) {
            countingThread.set(Thread.currentThread().getName());
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return text.isBlank() ? 0 : text.strip().split(" +").length;
        }

        @Override
        public String describe() {
            return "words";
        }
    }

    private static List<PreparedRequest> requests(int n) {
        RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.of("m"), true, null);
        List<PreparedRequest> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, new int[] {5, 6}, 4 + i)));
        }
        return list;
    }

    @Test
    void aRequestsSlotIsFreedBeforeItsTextIsCounted() throws Exception {
        GatedWordCounter words = new GatedWordCounter();
        try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.fullSpeed()));
             StreamingClient client = new StreamingClient(new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS,
                     Optional.empty(), 1, Duration.ofSeconds(10)), NanoClock.startingNow())) {
            AtomicReference<List<RequestRecord>> records = new AtomicReference<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread run = Thread.ofPlatform().start(() -> {
                try (LoadPointResult result = new LoadDriver(client, Optional.of(words)).run(requests(3), new long[3],
                        1, r -> { }, LoadProgress.NONE)) {
                    records.set(result.records());
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            // Concurrency 1 and the first count held: all three requests still reach the server.
            server.awaitEmissions(3, Duration.ofSeconds(20));
            assertThat(server.requestCount()).isEqualTo(3);
            assertThat(records.get()).as("the load point waits for the counts").isNull();
            words.release.countDown();
            run.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(failed.get()).isNull();
            // The scripted server's token j reads " t<j>": one word per token.
            assertThat(records.get()).extracting(RequestRecord::retokenizedOutputLen)
                    .containsExactly(OptionalInt.of(4), OptionalInt.of(5), OptionalInt.of(6));
            assertThat(words.countingThread.get()).isEqualTo("servebench-retokenizer");
        }
    }

    @Test
    void aTokenizerThatFailsStopsTheRunAsAnInternalError() throws Exception {
        Tokenizer broken = new Tokenizer() {
            @Override
            public int countPrompt(String text) {
                throw new IllegalStateException("native tokenizer gone");
            }

            @Override
            public int countText(String text) {
                throw new IllegalStateException("native tokenizer gone");
            }

            @Override
            public String describe() {
                return "broken";
            }
        };
        try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.fullSpeed()));
             StreamingClient client = new StreamingClient(new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS,
                     Optional.empty(), 1, Duration.ofSeconds(10)), NanoClock.startingNow())) {
            assertThatThrownBy(() -> new LoadDriver(client, Optional.of(broken)).run(requests(2), new long[2], 1,
                    r -> { }, LoadProgress.NONE))
                    .isInstanceOf(InternalRunError.class).hasMessageContaining("native tokenizer gone");
        }
    }

    @Test
    void closingLetsGoOfASubmitWaitingForRoom() {
        GatedWordCounter words = new GatedWordCounter();
        List<RequestRecord> counted = new ArrayList<>();
        OutputRetokenizer counter = new OutputRetokenizer(words, t -> { });
        RequestRecord record = new RequestRecord(0, 1, 1, 0, 0, 1, dev.servebench.record.ChunkTimeline.empty(),
                Optional.empty(), dev.servebench.record.Outcome.SUCCESS);
        // A text as large as the bound takes all the room: the next submit could only wait, until close.
        counter.submit(record, "x".repeat(OutputRetokenizer.MAX_WAITING_CHARS), counted::add);
        Thread waiting = Thread.ofPlatform().start(() -> counter.submit(record, "y", counted::add));
        counter.close();
        words.release.countDown();
        assertThat(waiting).satisfies(t -> {
            t.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(t.isAlive()).as("a submit waiting for room is let go by close").isFalse();
        });
        assertThat(counter.waiting()).isZero();
    }
}
