package dev.servebench.server.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.server.embedded.RecordingSink.End;
import dev.servebench.server.embedded.TokenSink.FinishReason;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** One slot, so a leaked slot would block every later request. */
class LlamaEngineCancelTest {

    private static LlamaEngine engine;
    private final AtomicLong clock = new AtomicLong();

    @BeforeAll
    static void start() {
        engine = TestModels.start(1, 512);
    }

    @AfterAll
    static void stop() {
        engine.close();
    }

    private RecordingSink submit(int promptVariant, int maxTokens) {
        RecordingSink sink = new RecordingSink(clock);
        engine.submit(TestModels.exact(TestModels.prompt(16, promptVariant), maxTokens), sink);
        return sink;
    }

    @Test
    void cancellingTheRunningGenerationFreesTheOnlySlot() throws Exception {
        RecordingSink running = new RecordingSink(clock);
        GenerationHandle handle = engine.submit(TestModels.exact(TestModels.prompt(16, 10), 480), running);
        running.awaitFirstToken();
        handle.cancel();
        handle.cancel(); // idempotent

        End.Completed end = (End.Completed) running.awaitEnd();
        assertThat(end.reason()).isEqualTo(FinishReason.CANCELLED);
        assertThat(end.promptTokens()).isEqualTo(17);
        assertThat(end.completionTokens()).isEqualTo(running.ids().size()).isBetween(1, 479);
        assertThat(running.endCalls()).isEqualTo(1);

        RecordingSink next = submit(11, 10);
        assertThat(next.awaitEnd()).as("the slot is free again").isEqualTo(new End.Completed(FinishReason.LENGTH, 17, 10));
        assertThat(engine.stats().running()).isZero();
    }

    @Test
    void aQueuedGenerationEndsCancelledWithoutTokens() throws Exception {
        RecordingSink first = new RecordingSink(clock);
        GenerationHandle firstHandle = engine.submit(TestModels.exact(TestModels.prompt(16, 20), 480), first);
        RecordingSink queued = new RecordingSink(clock);
        GenerationHandle queuedHandle = engine.submit(TestModels.exact(TestModels.prompt(16, 21), 480), queued);
        first.awaitFirstToken();
        queuedHandle.cancel();

        assertThat(queued.awaitEnd()).isEqualTo(new End.Completed(FinishReason.CANCELLED, 17, 0));
        assertThat(queued.ids()).isEmpty();
        firstHandle.cancel();
        assertThat(first.awaitEnd()).isInstanceOf(End.Completed.class);
    }

    @Test
    void withOneSlotRequestsRunOneAfterAnotherInOrder() throws Exception {
        List<RecordingSink> sinks = List.of(submit(30, 6), submit(31, 6), submit(32, 6));
        for (RecordingSink sink : sinks) {
            assertThat(sink.awaitEnd()).isEqualTo(new End.Completed(FinishReason.LENGTH, 17, 6));
        }

        assertThat(sinks.get(1).firstTokenAt()).isGreaterThan(sinks.get(0).endAt());
        assertThat(sinks.get(2).firstTokenAt()).isGreaterThan(sinks.get(1).endAt());
    }
}
