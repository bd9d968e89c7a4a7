package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionBehaviorTest {

    private static final String SMALL = "{\"prompt\":\"x\",\"max_tokens\":3,\"stream\":true}";

    @Test
    void keepAliveServesSequentialRequestsOnOneConnection() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.fullSpeed());
             RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            for (int i = 0; i < 3; i++) {
                raw.send(RawHttpClient.post("/v1/completions", SMALL));
                RawHttpClient.Response r = raw.read();
                assertThat(r.status()).isEqualTo(200);
                assertThat(Sse.data(r.bodyText())).hasSize(4).endsWith("[DONE]");
            }
            raw.send(RawHttpClient.get("/health"));
            assertThat(raw.read().status()).isEqualTo(200);
            assertThat(server.openConnections()).isEqualTo(1);
        }
    }

    @Test
    void pipelinedRequestsAreAnsweredInOrder() throws Exception {
        Script script = Script.builder()
                .named("slow", Plan.builder().ttft(Duration.ofMillis(20)).gap(Duration.ofMillis(2)).build())
                .build();
        try (ScriptedServer server = ScriptedServer.start(script);
             RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            byte[] slow = RawHttpClient.post("/v1/completions", SMALL, "x-script: slow");
            byte[] fast = RawHttpClient.post("/v1/chat/completions",
                    "{\"messages\":[],\"max_tokens\":2,\"stream\":true}");
            byte[] gen = RawHttpClient.post("/generate", "{\"text\":\"x\",\"sampling_params\":{\"max_new_tokens\":2}}");
            byte[] all = new byte[slow.length + fast.length + gen.length + RawHttpClient.get("/v1/models").length];
            int at = 0;
            for (byte[] part : List.of(slow, fast, gen, RawHttpClient.get("/v1/models"))) {
                System.arraycopy(part, 0, all, at, part.length);
                at += part.length;
            }
            // Warm up first: cold, the first response's rendering alone can outlast its 20 ms TTFT.
            for (int i = 0; i < 3; i++) {
                raw.send(slow);
                raw.read();
            }
            server.awaitEmissions(3, Duration.ofSeconds(2));
            server.clearEmissions();
            raw.send(all); // one TCP write: the server decodes all four before the first is answered

            assertThat(raw.read().bodyText()).contains("\"text\":\" t2\"").contains("cmpl-");
            assertThat(raw.read().bodyText()).contains("chat.completion.chunk");
            assertThat(raw.read().bodyText()).startsWith("{\"text\":\" t0 t1\"");
            assertThat(raw.read().bodyText()).contains("\"object\":\"list\"");

            List<EmissionLog> logs = server.awaitEmissions(3, Duration.ofSeconds(2));
            EmissionLog first = logs.get(0);
            EmissionLog second = logs.get(1);
            assertThat(first.cached()).isFalse();
            assertThat(second.cached()).isTrue();
            // The second arrived with the first but waited in the queue until the first had sent its last chunk.
            assertThat(second.arrivalNanos()).isLessThan(first.emissionNanos(0));
            assertThat(second.startNanos()).isGreaterThanOrEqualTo(first.emissionNanos(2));
        }
    }

    @Test
    void oversizedBodyIs413AndConnectionSurvives() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.fullSpeed(),
                ServerOptions.defaults().withMaxBodyBytes(1024));
             RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            String big = "{\"prompt\":\"" + "a".repeat(2000) + "\"}";
            HttpResponse<String> viaClient = Http.post(server, "/v1/completions", big);
            assertThat(viaClient.statusCode()).isEqualTo(413);
            assertThat(Sse.parse(viaClient.body()).at("/error/message").asText()).contains("1024 bytes");

            raw.send(RawHttpClient.post("/v1/completions", big));
            assertThat(raw.read().status()).isEqualTo(413);
            raw.send(RawHttpClient.post("/v1/completions", SMALL));
            assertThat(raw.read().status()).isEqualTo(200);

            HttpResponse<String> expecting = Http.CLIENT.send(Http.request(server, "/v1/completions")
                    .expectContinue(true).POST(HttpRequest.BodyPublishers.ofString(big)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(expecting.statusCode()).isEqualTo(413);
            HttpResponse<String> continued = Http.CLIENT.send(Http.request(server, "/v1/completions")
                    .expectContinue(true).POST(HttpRequest.BodyPublishers.ofString(SMALL)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(continued.statusCode()).isEqualTo(200);
        }
    }

    @Test
    void defaultBodyLimitIsEightMebibytes() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.fullSpeed())) {
            String prompt = "a".repeat(8 << 20);
            assertThat(Http.post(server, "/v1/completions", "{\"prompt\":\"" + prompt + "\"}").statusCode())
                    .isEqualTo(413);
            String fits = "{\"max_tokens\":1,\"prompt\":\"" + prompt.substring(100) + "\"}";
            HttpResponse<String> ok = Http.post(server, "/v1/completions", fits);
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(Sse.parse(ok.body()).at("/usage/prompt_tokens").asInt()).isEqualTo(((8 << 20) - 100) / 4);
        }
    }

    @Test
    void connectionsBeyondTheLimitGet503() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.fullSpeed(),
                ServerOptions.defaults().withMaxConnections(1));
             RawHttpClient first = new RawHttpClient(server.port(), 2000);
             RawHttpClient second = new RawHttpClient(server.port(), 2000)) {
            first.send(RawHttpClient.post("/v1/completions", SMALL));
            assertThat(first.read().status()).isEqualTo(200);
            second.send(RawHttpClient.post("/v1/completions", SMALL));
            RawHttpClient.Response rejected = second.read();
            assertThat(rejected.status()).isEqualTo(503);
            assertThat(rejected.headers()).containsEntry("connection", "close");
            assertThat(rejected.bodyText()).contains("connection limit of 1");
            assertThat(second.readByte()).isEqualTo(-1);
            assertThat(server.openConnections()).isEqualTo(1);
        }
    }

    @Test
    void connectionCloseIsHonoured() throws Exception {
        Script script = Script.builder()
                .named("paced", Plan.builder().ttft(Duration.ofMillis(1)).build())
                .build();
        try (ScriptedServer server = ScriptedServer.start(script)) {
            for (String header : new String[] {"x-script: paced", "x-other: 1"}) {
                try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                    raw.send(RawHttpClient.post("/v1/completions", SMALL, "connection: close", header));
                    RawHttpClient.Response r = raw.read();
                    assertThat(r.headers()).containsEntry("connection", "close");
                    assertThat(Sse.data(r.bodyText())).endsWith("[DONE]");
                    assertThat(raw.readByte()).isEqualTo(-1);
                }
            }
        }
    }

    @Test
    void plansBySelectorAndOutcomesAreLogged() throws Exception {
        Script script = Script.builder()
                .byIndex(i -> switch ((int) i) {
                    case 1 -> Plan.builder().fault(Fault.httpError(500, "server_error", "scripted")).build();
                    case 2 -> Plan.builder().ttft(Duration.ofMillis(1)).fault(Fault.resetAfter(2)).build();
                    case 3 -> Plan.builder().gap(Duration.ofMillis(50)).build();
                    default -> null;
                })
                .build();
        try (ScriptedServer server = ScriptedServer.start(script)) {
            assertThat(Http.post(server, "/v1/completions", SMALL).statusCode()).isEqualTo(200);
            assertThat(Http.post(server, "/v1/completions", SMALL).statusCode()).isEqualTo(500);
            try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                raw.send(RawHttpClient.post("/v1/completions", SMALL));
                while (true) {
                    try {
                        if (raw.readByte() < 0) {
                            break;
                        }
                    } catch (java.io.IOException reset) {
                        break;
                    }
                }
            }
            try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                raw.send(RawHttpClient.post("/v1/completions", SMALL));
                raw.readHead();
                assertThat(new String(raw.readChunk(), StandardCharsets.UTF_8)).contains(" t0");
            } // closed by the client after the first chunk
            List<EmissionLog> logs = server.awaitEmissions(4, Duration.ofSeconds(2));
            assertThat(logs).extracting(EmissionLog::outcome).containsExactly(EmissionLog.Outcome.COMPLETED,
                    EmissionLog.Outcome.HTTP_ERROR, EmissionLog.Outcome.RESET, EmissionLog.Outcome.CLOSED_EARLY);
            assertThat(logs.get(2).chunkCount()).isEqualTo(2);
            assertThat(logs.get(2).plannedChunks()).isEqualTo(3);
            assertThat(logs.get(3).chunkCount()).isEqualTo(1);
            assertThat(logs).extracting(EmissionLog::requestIndex).containsExactly(0L, 1L, 2L, 3L);
        }
    }
}
