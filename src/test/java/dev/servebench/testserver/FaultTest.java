package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class FaultTest {

    private static final String STREAM = "{\"prompt\":\"x\",\"max_tokens\":4,\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true}}";
    private static final String CHAT = "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":4,"
            + "\"stream\":true,\"stream_options\":{\"include_usage\":true}}";

    private static ScriptedServer server;

    @BeforeAll
    static void start() {
        server = ScriptedServer.start(Script.builder()
                .named("429", Plan.builder().fault(Fault.httpError(429, "rate_limit_exceeded", "slow down")).build())
                .named("500", Plan.builder().fault(new Fault.HttpError(500, "{\"error\":{\"message\":\"boom\"}}"))
                        .build())
                .named("reset", Plan.builder().fault(Fault.resetAfter(2)).build())
                .named("stall", Plan.builder().fault(Fault.stallAfter(2)).build())
                .named("invalid", Plan.builder().fault(Fault.invalidJsonAt(1)).build())
                .named("nodone", Plan.builder().fault(Fault.noDone()).build())
                .named("error", Plan.builder().fault(Fault.inStreamError(2, "engine died")).build())
                .named("ping", Plan.builder().pingEvery(2).build())
                .named("empty", Plan.builder().emptyEvery(1).build())
                .named("crlf", Plan.builder().crlf(true).pingEvery(1).build())
                .named("split", Plan.builder().splitWrites(Duration.ofMillis(5)).build())
                .build());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> post(String script, String json) throws Exception {
        return Http.post(server, "/v1/completions", json, "x-script", script);
    }

    @Test
    void httpErrorStatusAndBody() throws Exception {
        HttpResponse<String> r = post("429", STREAM);
        assertThat(r.statusCode()).isEqualTo(429);
        assertThat(r.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode error = Sse.parse(r.body()).get("error");
        assertThat(error.get("message").asText()).isEqualTo("slow down");
        assertThat(error.get("type").asText()).isEqualTo("rate_limit_exceeded");
        assertThat(error.get("code").asInt()).isEqualTo(429);
        HttpResponse<String> r500 = post("500", STREAM);
        assertThat(r500.statusCode()).isEqualTo(500);
        assertThat(r500.body()).isEqualTo("{\"error\":{\"message\":\"boom\"}}");
    }

    @Test
    void resetAfterChunksIsAnIoException() throws Exception {
        assertThatThrownBy(() -> post("reset", STREAM)).isInstanceOf(IOException.class);
        try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            raw.send(RawHttpClient.post("/v1/completions", STREAM, "x-script: reset"));
            assertThat(raw.readHead().status()).isEqualTo(200);
            // The two chunks may or may not be readable before the RST; the reset itself must surface.
            assertThatThrownBy(() -> {
                while (raw.readByte() >= 0) {
                    // drain
                }
            }).isInstanceOf(IOException.class).hasMessageContaining("reset");
        }
    }

    @Test
    void stallKeepsConnectionOpenAndSilent() throws Exception {
        try (RawHttpClient raw = new RawHttpClient(server.port(), 300)) {
            raw.send(RawHttpClient.post("/v1/completions", STREAM, "x-script: stall"));
            assertThat(raw.readHead().status()).isEqualTo(200);
            String first = new String(raw.readChunk(), StandardCharsets.UTF_8);
            String second = new String(raw.readChunk(), StandardCharsets.UTF_8);
            assertThat(first).contains("\" t0\"");
            assertThat(second).contains("\" t1\"");
            assertThatThrownBy(raw::readByte).isInstanceOf(SocketTimeoutException.class);
            // Still open: another read times out again instead of seeing end-of-stream.
            assertThatThrownBy(raw::readByte).isInstanceOf(SocketTimeoutException.class);
            assertThat(raw.socket().isClosed()).isFalse();
        }
    }

    @Test
    void invalidJsonEventAtPosition() throws Exception {
        List<String> data = Sse.data(post("invalid", STREAM).body());
        assertThat(data).hasSize(7); // 4 tokens, 1 invalid, usage, [DONE]
        assertThat(data.get(1)).startsWith("{").doesNotEndWith("}");
        assertThatThrownBy(() -> Sse.parse(data.get(1))).hasCauseInstanceOf(IOException.class);
        assertThat(Sse.parse(data.get(0)).at("/choices/0/text").asText()).isEqualTo(" t0");
        assertThat(Sse.parse(data.get(2)).at("/choices/0/text").asText()).isEqualTo(" t1");
    }

    @Test
    void streamEndsCleanlyWithoutDone() throws Exception {
        HttpResponse<String> r = post("nodone", STREAM);
        assertThat(r.statusCode()).isEqualTo(200);
        List<String> data = Sse.data(r.body());
        assertThat(data).hasSize(5).doesNotContain("[DONE]");
        assertThat(Sse.parse(data.getLast()).has("usage")).isTrue();
    }

    @Test
    void inStreamErrorEventThenDone() throws Exception {
        List<String> data = Sse.data(post("error", STREAM).body());
        assertThat(data).hasSize(4);
        JsonNode error = Sse.parse(data.get(2));
        assertThat(error.toString())
                .isEqualTo("{\"error\":{\"message\":\"engine died\",\"type\":\"InternalServerError\",\"code\":500}}");
        assertThat(data.get(3)).isEqualTo("[DONE]");
        assertThat(data).noneMatch(d -> d.contains("usage"));
    }

    @Test
    void pingsAreInterleavedComments() throws Exception {
        String body = post("ping", STREAM).body();
        List<String> blocks = Sse.blocks(body);
        assertThat(blocks).filteredOn(b -> b.equals(": ping")).hasSize(2);
        assertThat(blocks.get(0)).isEqualTo(": ping");
        assertThat(blocks.get(3)).isEqualTo(": ping");
        assertThat(Sse.data(body)).hasSize(6);
    }

    @Test
    void emptyContentChunksAreInterleaved() throws Exception {
        List<JsonNode> events = Sse.json(Http.post(server, "/v1/chat/completions", CHAT, "x-script", "empty")
                .body());
        // role, then per token: empty chunk + token chunk, then usage
        assertThat(events).hasSize(10);
        assertThat(events.subList(1, 9)).extracting(e -> e.at("/choices/0/delta/content").asText())
                .containsExactly("", " t0", "", " t1", "", " t2", "", " t3");
    }

    @Test
    void crlfLineEndings() throws Exception {
        String body = post("crlf", STREAM).body();
        assertThat(body.replace("\r\n", "")).doesNotContain("\n");
        assertThat(body).startsWith(": ping\r\n\r\ndata: {").endsWith("data: [DONE]\r\n\r\n");
        assertThat(Sse.json(body)).hasSize(5);
    }

    @Test
    void splitWritesSendEachEventInTwoPieces() throws Exception {
        try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            raw.send(RawHttpClient.post("/v1/completions", STREAM, "x-script: split"));
            RawHttpClient.Response r = raw.read();
            assertThat(r.httpChunks()).hasSize(12); // 6 events in two pieces each
            for (int i = 0; i < 12; i += 2) {
                String firstHalf = new String(r.httpChunks().get(i), StandardCharsets.UTF_8);
                assertThat(firstHalf).startsWith("data: ").doesNotEndWith("\n");
            }
            assertThat(Sse.data(r.bodyText())).hasSize(6).endsWith("[DONE]");
        }
        HttpResponse<String> whole = post("split", STREAM);
        assertThat(Sse.json(whole.body())).hasSize(5);
    }
}
