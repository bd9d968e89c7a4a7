package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.testserver.ConnectionBehavior.BodyFraming;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Error and non-streaming bodies framed by Content-Length (the default, as uvicorn's JSONResponse sends them)
 * or chunked (as some proxies re-frame them). Either way the connection stays usable.
 */
class BodyFramingTest {

    private static final String STREAM = "{\"prompt\":\"x\",\"max_tokens\":3,\"stream\":true}";
    private static final String WHOLE = "{\"prompt\":\"x\",\"max_tokens\":3}";
    private static final String BOOM = "{\"error\":{\"message\":\"boom\"}}";

    private static ScriptedServer start(ConnectionBehavior behavior) {
        Script script = Script.builder()
                .named("500", Plan.builder().fault(new Fault.HttpError(500, BOOM)).build())
                .build();
        return ScriptedServer.start(script, ServerOptions.defaults().withConnection(behavior));
    }

    @Test
    void errorsAndWholeBodiesUseContentLengthByDefault() throws Exception {
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive());
             RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            raw.send(RawHttpClient.post("/v1/completions", STREAM, "x-script: 500"));
            RawHttpClient.Response error = raw.read();
            assertThat(new String(error.wire(), StandardCharsets.UTF_8)).isEqualTo("HTTP/1.1 500 Internal Server Error"
                    + "\r\ncontent-type: application/json\r\ncontent-length: " + BOOM.length() + "\r\n\r\n" + BOOM);
            raw.send(RawHttpClient.post("/v1/completions", WHOLE));
            RawHttpClient.Response whole = raw.read();
            assertThat(whole.headers()).containsKey("content-length").doesNotContainKey("transfer-encoding");
            raw.send(RawHttpClient.get("/nowhere"));
            assertThat(raw.read().headers()).containsKey("content-length");
        }
    }

    @Test
    void chunkedErrorsAreOneChunkAndKeepTheConnection() throws Exception {
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive().withErrorFraming(BodyFraming.CHUNKED));
             RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            raw.send(RawHttpClient.post("/v1/completions", STREAM, "x-script: 500"));
            RawHttpClient.Response error = raw.read();
            assertThat(new String(error.wire(), StandardCharsets.UTF_8)).isEqualTo("HTTP/1.1 500 Internal Server Error"
                    + "\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n"
                    + Integer.toHexString(BOOM.length()) + "\r\n" + BOOM + "\r\n0\r\n\r\n");
            // Errors the server makes up itself are framed the same way.
            raw.send(RawHttpClient.get("/nowhere"));
            RawHttpClient.Response notFound = raw.read();
            assertThat(notFound.status()).isEqualTo(404);
            assertThat(notFound.headers()).containsEntry("transfer-encoding", "chunked");
            assertThat(Sse.parse(notFound.bodyText()).at("/error/code").asInt()).isEqualTo(404);
            // Non-streaming successes keep Content-Length: only errors were asked to change.
            raw.send(RawHttpClient.post("/v1/completions", WHOLE));
            assertThat(raw.read().headers()).containsKey("content-length");
            assertThat(server.serverClosedConnections()).isZero();
        }
    }

    @Test
    void chunkedWholeBodies() throws Exception {
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive().withWholeFraming(BodyFraming.CHUNKED));
             RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            raw.send(RawHttpClient.post("/v1/completions", WHOLE));
            RawHttpClient.Response whole = raw.read();
            assertThat(whole.headers()).containsEntry("transfer-encoding", "chunked").doesNotContainKey(
                    "content-length");
            assertThat(whole.httpChunks()).hasSize(1);
            assertThat(Sse.parse(whole.bodyText()).at("/choices/0/text").asText()).isEqualTo(" t0 t1 t2");
            raw.send(RawHttpClient.get("/health"));
            RawHttpClient.Response health = raw.read();
            assertThat(health.httpChunks()).isEmpty(); // an empty body is just the terminating chunk
            assertThat(new String(health.wire(), StandardCharsets.US_ASCII)).endsWith("\r\n\r\n0\r\n\r\n");
            raw.send(RawHttpClient.post("/v1/completions", STREAM, "x-script: 500"));
            assertThat(raw.read().headers()).containsKey("content-length");
        }
        // A stock client reads both framings.
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive().withWholeFraming(BodyFraming.CHUNKED)
                .withErrorFraming(BodyFraming.CHUNKED))) {
            HttpResponse<String> whole = Http.post(server, "/v1/completions", WHOLE);
            assertThat(Sse.parse(whole.body()).at("/usage/completion_tokens").asInt()).isEqualTo(3);
            assertThat(Http.post(server, "/v1/completions", WHOLE, "x-script", "500").body()).isEqualTo(BOOM);
        }
    }
}
