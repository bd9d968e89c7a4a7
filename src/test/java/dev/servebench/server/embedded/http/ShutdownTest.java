package dev.servebench.server.embedded.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ConnectException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Stopping the server with streams running, queued and non-streaming requests in flight. */
class ShutdownTest {

    @Test
    void closeEndsEveryStreamWithAnErrorEventAndReturnsPromptly() throws Exception {
        ScriptedEngine engine = new ScriptedEngine(2, 2048, Duration.ofMillis(5));
        ServerFixture fx = new ServerFixture(engine);
        try {
            HttpRequest streaming = HttpRequest.newBuilder(fx.uri("/v1/chat/completions")).POST(HttpRequest.BodyPublishers.ofString(
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":1500,\"stream\":true}")).build();
            List<CompletableFuture<HttpResponse<String>>> streams = IntStream.range(0, 3)
                    .mapToObj(i -> fx.http.sendAsync(streaming, HttpResponse.BodyHandlers.ofString())).toList();
            CompletableFuture<HttpResponse<String>> whole = fx.http.sendAsync(HttpRequest.newBuilder(fx.uri("/v1/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"x\",\"max_tokens\":1500}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            // two streams hold the slots, the third and the non-streaming request wait
            Eventually.until(Duration.ofSeconds(3), () -> engine.stats().running() == 2 && engine.stats().waiting() == 2);
            Thread.sleep(50);

            long start = System.nanoTime();
            fx.server.close();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));

            for (CompletableFuture<HttpResponse<String>> stream : streams) {
                HttpResponse<String> res = stream.get(3, TimeUnit.SECONDS);
                assertThat(res.statusCode()).isEqualTo(200);
                List<String> events = ServerFixture.events(res.body());
                assertThat(events).last().isEqualTo("[DONE]");
                JsonNode error = Json.MAPPER.readTree(events.get(events.size() - 2)).path("error");
                assertThat(error.path("message").asText()).isEqualTo("server is shutting down");
                assertThat(error.path("type").asText()).isEqualTo("server_error");
            }
            HttpResponse<String> res = whole.get(3, TimeUnit.SECONDS);
            assertThat(res.statusCode()).isEqualTo(503);
            assertThat(res.body()).contains("server is shutting down");
            // every generation was cancelled, none is left holding a slot
            Eventually.until(Duration.ofSeconds(2), () -> engine.stats().running() == 0 && engine.stats().waiting() == 0);
            assertThat(engine.cancels.get()).isEqualTo(4);
            assertThat(fx.server.awaitShutdown(Duration.ZERO)).isTrue();

            assertThatThrownBy(() -> fx.http.send(HttpRequest.newBuilder(fx.uri("/health")).build(),
                    HttpResponse.BodyHandlers.ofString())).isInstanceOf(ConnectException.class);
        } finally {
            fx.close();
        }
    }

    @Test
    void engineErrorMidStreamBecomesAnErrorEvent() throws Exception {
        ScriptedEngine engine = new ScriptedEngine(1, 2048, Duration.ofMillis(5));
        try (ServerFixture fx = new ServerFixture(engine)) {
            CompletableFuture<HttpResponse<String>> stream = fx.http.sendAsync(HttpRequest.newBuilder(fx.uri("/v1/completions"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"x\",\"max_tokens\":1500,\"stream\":true}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            Eventually.until(Duration.ofSeconds(3), () -> engine.stats().generationTokensTotal() > 2);

            engine.close();

            List<String> events = ServerFixture.events(stream.get(3, TimeUnit.SECONDS).body());
            assertThat(events.get(events.size() - 2)).isEqualTo(
                    "{\"error\":{\"message\":\"engine closed\",\"type\":\"server_error\",\"param\":null,\"code\":null}}");
            assertThat(events).last().isEqualTo("[DONE]");
            assertThat(fx.get("/health").statusCode()).isEqualTo(200); // the fake's stats() still answers
            HttpResponse<String> refused = fx.post("/v1/completions", "{\"prompt\":\"x\"}");
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("engine is not available: engine is closed");
            assertThat(fx.get("/metrics").body()).contains("servebench_request_success_total{finished_reason=\"error\"} 1.0");
        }
    }

    @Test
    void closeIsIdempotent() throws Exception {
        ScriptedEngine engine = new ScriptedEngine(1, 256, Duration.ofMillis(5));
        ServerFixture fx = new ServerFixture(engine);
        assertThat(fx.get("/health").statusCode()).isEqualTo(200);
        assertThat(fx.get("/health").body()).isEmpty();
        fx.server.close();
        fx.server.close();
        assertThat(fx.server.isClosing()).isTrue();
        fx.close();
    }
}
