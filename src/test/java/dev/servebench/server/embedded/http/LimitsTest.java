package dev.servebench.server.embedded.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The server's bounds: read timeout, body size without a declared length, connection cap. */
class LimitsTest {

    private static ServerSettings settings() {
        return ServerSettings.defaults().withPort(0).withReadTimeout(Duration.ofMillis(300)).withMaxRequestBytes(2048);
    }

    @Test
    void aStalledUploadIsCutAfterTheReadTimeout() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 256, Duration.ofMillis(1)), settings());
             Socket socket = new Socket("127.0.0.1", fx.server.port())) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream().write(("POST /v1/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"pro")
                    .getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            byte[] answer = socket.getInputStream().readAllBytes(); // until the server closes the connection
            Duration waited = Duration.ofNanos(System.nanoTime() - start);

            assertThat(waited).isBetween(Duration.ofMillis(250), Duration.ofSeconds(3));
            assertThat(fx.engine.stats().promptTokensTotal()).isZero();
            String text = new String(answer, StandardCharsets.UTF_8);
            assertThat(text.isEmpty() || text.startsWith("HTTP/1.1 4")).as(text).isTrue();
        }
    }

    @Test
    void aStreamOutlivesTheReadTimeout() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 256, Duration.ofMillis(20)), settings())) {
            long start = System.nanoTime();
            HttpResponse<String> res = fx.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":40,\"ignore_eos\":true,\"stream\":true}");

            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(600));
            assertThat(ServerFixture.events(res.body())).hasSize(41).last().isEqualTo("[DONE]");
        }
    }

    @Test
    void aChunkedBodyOverTheLimitIs413() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 256, Duration.ofMillis(1)), settings())) {
            String big = "{\"prompt\":\"" + "y ".repeat(2000) + "\"}";
            // a streaming publisher has no length, so the JDK client sends Transfer-Encoding: chunked
            HttpResponse<String> res = fx.send(HttpRequest.newBuilder(fx.uri("/v1/completions"))
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new java.io.ByteArrayInputStream(big.getBytes(StandardCharsets.UTF_8)))));

            assertThat(res.statusCode()).isEqualTo(413);
            assertThat(res.body()).startsWith("{\"error\":{\"message\":");
        }
    }

    @Test
    void connectionsBeyondTheCapWaitAndAreServedLater() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(4, 256, Duration.ofMillis(5)), settings().withMaxConnections(1))) {
            RawStream first = new RawStream(fx.server.port(), "/v1/completions",
                    "{\"prompt\":\"x\",\"max_tokens\":30,\"ignore_eos\":true,\"stream\":true}");
            CompletableFuture<HttpResponse<String>> second;
            try (first) {
                first.readUntil("data: {", 1);
                second = fx.http.sendAsync(HttpRequest.newBuilder(fx.uri("/v1/completions"))
                        .POST(HttpRequest.BodyPublishers.ofString("{\"prompt\":\"x\",\"max_tokens\":2}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                Thread.sleep(50);
                assertThat(fx.engine.stats().running() + fx.engine.stats().waiting()).isEqualTo(1);
                first.readUntil("data: [DONE]", 1);
            }
            // the first connection closed: the waiting one is accepted and served
            assertThat(second.get(5, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
        }
    }
}
