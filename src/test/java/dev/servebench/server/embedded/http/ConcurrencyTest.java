package dev.servebench.server.embedded.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Queueing beyond the engine's slots, and a client hanging up mid-stream. */
class ConcurrencyTest {

    @Test
    void moreStreamsThanSlotsQueueAndAllComplete() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(2, 256, Duration.ofMillis(2)))) {
            HttpRequest request = HttpRequest.newBuilder(fx.uri("/v1/completions")).POST(HttpRequest.BodyPublishers.ofString(
                    "{\"prompt\":\"q\",\"max_tokens\":20,\"stream\":true,\"stream_options\":{\"include_usage\":true}}")).build();
            List<CompletableFuture<HttpResponse<String>>> streams = IntStream.range(0, 8)
                    .mapToObj(i -> fx.http.sendAsync(request, HttpResponse.BodyHandlers.ofString())).toList();

            for (CompletableFuture<HttpResponse<String>> stream : streams) {
                HttpResponse<String> res = stream.get(8, TimeUnit.SECONDS);
                assertThat(res.statusCode()).isEqualTo(200);
                List<String> events = ServerFixture.events(res.body());
                assertThat(events).hasSize(20 + 2).endsWith("[DONE]");
                assertThat(events.get(20)).contains("\"completion_tokens\":20");
            }
            assertThat(fx.engine.maxRunning.get()).isEqualTo(2);
            assertThat(fx.engine.maxWaiting.get()).isPositive();
        }
    }

    @Test
    void clientHangingUpCancelsTheGenerationAndFreesTheSlot() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 2048, Duration.ofMillis(5)))) {
            try (RawStream stream = new RawStream(fx.server.port(), "/v1/completions",
                    "{\"prompt\":\"q\",\"max_tokens\":1500,\"stream\":true}")) {
                assertThat(stream.readUntil("data: {", 3)).startsWith("HTTP/1.1 200");
            }
            Eventually.within(Duration.ofSeconds(3), () -> assertThat(fx.engine.cancels.get()).isEqualTo(1));

            // the only slot serves the next request
            HttpResponse<String> next = fx.post("/v1/completions", "{\"prompt\":\"q\",\"max_tokens\":3,\"ignore_eos\":true}");
            assertThat(next.statusCode()).isEqualTo(200);
            assertThat(next.body()).contains(" t0 t1 t2");
            Eventually.within(Duration.ofSeconds(2), () -> assertThat(fx.get("/metrics").body())
                    .contains("servebench_request_success_total{finished_reason=\"abort\"} 1.0"));
        }
    }

    @Test
    void clientHangingUpWhileQueuedIsCancelledAtItsFirstToken() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 256, Duration.ofMillis(5)))) {
            CompletableFuture<HttpResponse<String>> first = fx.http.sendAsync(HttpRequest.newBuilder(fx.uri("/v1/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"q\",\"max_tokens\":40,\"ignore_eos\":true,\"stream\":true}"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            Eventually.until(Duration.ofSeconds(2), () -> fx.engine.stats().running() == 1);
            try (RawStream queued = new RawStream(fx.server.port(), "/v1/completions",
                    "{\"prompt\":\"q\",\"max_tokens\":200,\"stream\":true}")) {
                Eventually.until(Duration.ofSeconds(2), () -> fx.engine.stats().waiting() == 1);
                // Helidon sends no headers before the first token (see SseWriter)
                assertThat(queued.quietFor(Duration.ofMillis(30))).isTrue();
            }
            assertThat(first.get(5, TimeUnit.SECONDS).body()).endsWith("data: [DONE]\n\n");
            Eventually.within(Duration.ofSeconds(3), () -> assertThat(fx.engine.cancels.get()).isEqualTo(1));
            assertThat(fx.engine.stats().running()).isZero();
        }
    }

    @Test
    void aClientThatStopsReadingNeverHoldsUpTheEngine() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(2, 60_000, Duration.ZERO))) {
            // ~8 MB of events for a client that reads nothing: more than the socket buffers hold
            try (RawStream stuck = new RawStream(fx.server.port(), "/v1/completions",
                    "{\"prompt\":\"q\",\"max_tokens\":50000,\"ignore_eos\":true,\"stream\":true}", 4096)) {
                Eventually.until(Duration.ofSeconds(3), () -> fx.engine.stats().running() == 1);

                HttpResponse<String> other = fx.post("/v1/completions", "{\"prompt\":\"q\",\"max_tokens\":5,\"ignore_eos\":true}");
                assertThat(other.statusCode()).isEqualTo(200);
                // the stuck stream's generation ran to its end although its handler is blocked writing
                Eventually.until(Duration.ofSeconds(5), () -> fx.engine.stats().requestsFinishedTotal() == 2);
                assertThat(fx.engine.stats().generationTokensTotal()).isEqualTo(50_005);
                assertThat(fx.engine.cancels.get()).isZero();
                // ... and its handler is still stuck in a write: only the other request has been answered
                assertThat(fx.get("/metrics").body()).contains("servebench_request_success_total{finished_reason=\"length\"} 1.0\n")
                        .doesNotContain("finished_reason=\"abort\"");
                assertThat(stuck.readUntil("data: {", 1)).startsWith("HTTP/1.1 200"); // its events are waiting to be read
            }
            // hanging up unblocks the write, which fails: counted as abort (nothing left to cancel)
            Eventually.within(Duration.ofSeconds(3), () -> assertThat(fx.get("/metrics").body())
                    .contains("servebench_request_success_total{finished_reason=\"abort\"} 1.0"));
        }
    }
}
