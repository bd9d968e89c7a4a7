package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The two time-driven behaviours: the idle keep-alive timeout (uvicorn's {@code timeout_keep_alive}) and the
 * slow start of a server still loading its model. Bounds are generous; the VM running these is noisy.
 */
class IdleAndSlowStartTest {

    private static final String STREAM = "{\"prompt\":\"x\",\"max_tokens\":4,\"stream\":true}";
    private static final long IDLE_MILLIS = 300;

    private static ScriptedServer idleServer() {
        Script script = Script.builder()
                // Four chunks 150 ms apart: the response takes longer than the idle timeout.
                .named("slow", Plan.builder().gap(Duration.ofMillis(150)).build())
                .build();
        return ScriptedServer.start(script, ServerOptions.defaults().withConnection(
                ConnectionBehavior.keepAlive().withIdleTimeout(Duration.ofMillis(IDLE_MILLIS))));
    }

    @Test
    void idleConnectionIsClosedWithoutNotice() throws Exception {
        try (ScriptedServer server = idleServer();
             RawHttpClient raw = new RawHttpClient(server.port(), 5000)) {
            raw.send(RawHttpClient.post("/v1/completions", STREAM));
            RawHttpClient.Response r = raw.read();
            assertThat(r.headers()).doesNotContainKey("connection");
            long idleFrom = System.nanoTime();
            assertThat(raw.readByte()).as("FIN after the idle timeout").isEqualTo(-1);
            long idleMillis = (System.nanoTime() - idleFrom) / 1_000_000;
            // The timer starts when the response is written, a little before the client has read it.
            assertThat(idleMillis).isBetween(IDLE_MILLIS / 2, 4_000L);
            assertThat(server.idleClosedConnections()).isEqualTo(1);
            assertThat(server.serverClosedConnections()).isEqualTo(1);
        }
    }

    @Test
    void silentNewConnectionIsClosedToo() throws Exception {
        try (ScriptedServer server = idleServer();
             RawHttpClient raw = new RawHttpClient(server.port(), 5000)) {
            assertThat(raw.readByte()).isEqualTo(-1);
            assertThat(server.idleClosedConnections()).isEqualTo(1);
        }
    }

    @Test
    void busyConnectionOutlivesTheTimeout() throws Exception {
        try (ScriptedServer server = idleServer();
             RawHttpClient raw = new RawHttpClient(server.port(), 5000)) {
            // ~450 ms from first to last chunk, more than the 300 ms timeout: must not be cut.
            raw.send(RawHttpClient.post("/v1/completions", STREAM, "x-script: slow"));
            RawHttpClient.Response slow = raw.read();
            assertThat(Sse.data(slow.bodyText())).hasSize(5).endsWith("[DONE]");
            // Requests closer together than the timeout keep the connection alive past several timeouts.
            for (int i = 0; i < 4; i++) {
                Thread.sleep(IDLE_MILLIS / 4);
                raw.send(RawHttpClient.post("/v1/completions", STREAM));
                assertThat(raw.read().status()).isEqualTo(200);
            }
            assertThat(server.idleClosedConnections()).isZero();
            assertThat(server.acceptedConnections()).isEqualTo(1);
        }
    }

    @Test
    void halfSentRequestStopsTheTimer() throws Exception {
        try (ScriptedServer server = idleServer();
             RawHttpClient raw = new RawHttpClient(server.port(), 5000)) {
            byte[] request = RawHttpClient.post("/v1/completions", STREAM);
            int half = request.length / 2;
            raw.send(java.util.Arrays.copyOf(request, half));
            Thread.sleep(IDLE_MILLIS * 2); // a request is arriving: uvicorn does not time it out either
            raw.send(java.util.Arrays.copyOfRange(request, half, request.length));
            assertThat(raw.read().status()).isEqualTo(200);
            assertThat(server.idleClosedConnections()).isZero();
        }
    }

    @Test
    void slowStartAnswers503ThenServes() throws Exception {
        long startedAt = System.nanoTime();
        try (ScriptedServer server = ScriptedServer.start(Script.fullSpeed(), ServerOptions.defaults()
                .withConnection(ConnectionBehavior.keepAlive().withSlowStart(Duration.ofMillis(1000))));
             RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            raw.send(RawHttpClient.post("/v1/completions", STREAM));
            RawHttpClient.Response loading = raw.read();
            assertThat(loading.status()).isEqualTo(503);
            assertThat(loading.headers()).containsEntry("content-type", "application/json")
                    .containsKey("content-length").doesNotContainKey("connection");
            assertThat(Sse.parse(loading.bodyText()).at("/error/message").asText()).contains("loading");
            raw.send(RawHttpClient.get("/health"));
            assertThat(raw.read().status()).as("health is not ready either").isEqualTo(503);

            // Same connection: the 503s keep it alive, and the server becomes ready on its own.
            int status = 503;
            while (status == 503 && System.nanoTime() - startedAt < 5_000_000_000L) {
                Thread.sleep(50);
                raw.send(RawHttpClient.post("/v1/completions", STREAM));
                RawHttpClient.Response r = raw.read();
                status = r.status();
                if (status == 200) {
                    assertThat(Sse.data(r.bodyText())).endsWith("[DONE]");
                }
            }
            assertThat(status).isEqualTo(200);
            assertThat((System.nanoTime() - startedAt) / 1_000_000).isGreaterThanOrEqualTo(1000);
            assertThat(server.slowStartRejections()).isGreaterThanOrEqualTo(2);
            assertThat(server.requestCount()).as("rejected requests take no index").isEqualTo(1);
            assertThat(server.acceptedConnections()).isEqualTo(1);
        }
    }
}
