package dev.servebench.server.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.server.embedded.RecordingSink.End;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LlamaEngineCloseTest {

    private final AtomicLong clock = new AtomicLong();

    @Test
    void closeEndsRunningAndQueuedGenerationsWithAnErrorAndReturnsQuickly() throws Exception {
        LlamaEngine engine = TestModels.start(2, 512);
        List<RecordingSink> sinks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            RecordingSink sink = new RecordingSink(clock);
            engine.submit(TestModels.exact(TestModels.prompt(16, 900 + i), 480), sink);
            sinks.add(sink);
        }
        sinks.get(0).awaitFirstToken();
        sinks.get(1).awaitFirstToken();

        long started = System.nanoTime();
        engine.close();
        double seconds = (System.nanoTime() - started) / 1e9;

        assertThat(seconds).as("close() seconds").isLessThan(5);
        for (RecordingSink sink : sinks) {
            assertThat(sink.awaitEnd()).isEqualTo(new End.Failed("server shutting down"));
            assertThat(sink.endCalls()).isEqualTo(1);
        }
        assertThat(engine.stats().running()).isZero();
        assertThat(engine.stats().waiting()).isZero();
        assertThatThrownBy(() -> engine.submit(TestModels.exact(TestModels.prompt(4, 0), 4), new RecordingSink(clock)))
                .isInstanceOf(IllegalStateException.class).hasMessage("engine is closed");
        assertThatThrownBy(() -> engine.tokenize("x")).isInstanceOf(IllegalStateException.class);
        engine.close(); // idempotent
    }

    @Test
    void anIdleEngineClosesAndItsDispatcherEnds() {
        LlamaEngine engine = TestModels.start(1, 64);
        Thread dispatcher = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().equals("llama-dispatcher") && t.isAlive())
                .reduce((a, b) -> b).orElseThrow();

        long started = System.nanoTime();
        engine.close();

        assertThat((System.nanoTime() - started) / 1e9).isLessThan(5);
        assertThat(dispatcher.isAlive()).as("dispatcher thread alive after close").isFalse();
    }
}
