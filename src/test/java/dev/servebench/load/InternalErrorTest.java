package dev.servebench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RecordSink;
import dev.servebench.record.RequestRecord;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.workload.PromptRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An error inside the client (an exception in a callback on an event loop, an OutOfMemoryError in the
 * records writer) stops the run within seconds with {@link InternalRunError}, instead of leaving the driver
 * waiting forever for requests whose records will never come.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InternalErrorTest {

    @TempDir
    Path dir;

    private static List<PreparedRequest> requests(int n) {
        RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.of("m"), true, null);
        List<PreparedRequest> prepared = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            prepared.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, new int[] {11, 12, 13}, 16)));
        }
        return prepared;
    }

    private static StreamingClient client(ScriptedServer server) {
        return new StreamingClient(new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS, Optional.empty(), 2,
                Duration.ofSeconds(10)), NanoClock.startingNow());
    }

    @Test
    void anExceptionInARecordCallbackOnTheEventLoopStopsTheRun() throws Exception {
        Plan paced = Plan.builder().gap(Duration.ofMillis(2)).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(paced)); StreamingClient client = client(server)) {
            AtomicInteger seen = new AtomicInteger();
            Consumer<RequestRecord> throwing = record -> {
                if (seen.incrementAndGet() == 5) {
                    throw new IllegalStateException("injected failure in a record callback");
                }
            };
            long start = System.nanoTime();
            assertThatThrownBy(() -> new LoadDriver(client).run(requests(2_000), new long[2_000], 8, throwing,
                    LoadProgress.NONE))
                    .isInstanceOf(InternalRunError.class)
                    .hasMessage("internal error in the client: IllegalStateException: injected failure in a record callback");
            assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(20));
        }
    }

    @Test
    void anOutOfMemoryErrorInTheRecordsWriterStopsTheRunAndKeepsValidLines() throws Exception {
        Path file = dir.resolve("records.jsonl");
        AtomicInteger encoded = new AtomicInteger();
        try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.builder().gap(Duration.ofMillis(1)).build()));
             StreamingClient client = client(server)) {
            RecordSink sink = RecordSink.withEncoder(file, record -> {
                if (encoded.incrementAndGet() > 20) {
                    throw new OutOfMemoryError("Java heap space (injected)");
                }
                return RecordJsonl.toLine(record);
            }, client::reportInternalError);
            assertThatThrownBy(() -> new LoadDriver(client).run(requests(5_000), new long[5_000], 8, sink::accept,
                    LoadProgress.NONE))
                    .isInstanceOf(InternalRunError.class)
                    .hasMessage("internal error in the client: OutOfMemoryError: Java heap space (injected)");
            assertThatThrownBy(sink::close).hasMessageContaining("OutOfMemoryError");
        }
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSizeBetween(1, 20);
        ObjectMapper json = new ObjectMapper();
        for (String line : lines) {
            assertThat(json.readTree(line).has("index")).isTrue();
        }
    }
}
