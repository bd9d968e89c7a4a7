package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The server ending connections after responses: unannounced after the Nth, announced with
 * {@code Connection: close}, and HTTP/1.0 where the close itself ends a streamed body. Each case checks the
 * bytes on the wire and that the server really closes (end of stream) right after the response.
 */
class ConnectionCloseTest {

    private static final String STREAM = "{\"prompt\":\"x\",\"max_tokens\":3,\"stream\":true}";
    private static final String WHOLE = "{\"prompt\":\"x\",\"max_tokens\":3}";
    /** Full-speed requests take the cached path, "paced" ones the per-request path; both must behave alike. */
    private static final String[] PATHS = {"x-other: 1", "x-script: paced"};

    private static Script script() {
        return Script.builder()
                .named("paced", Plan.builder().ttft(Duration.ofMillis(1)).build())
                .named("500", Plan.builder().fault(Fault.httpError(500, "server_error", "scripted")).build())
                .build();
    }

    private static ScriptedServer start(ConnectionBehavior behavior) {
        return ScriptedServer.start(script(), ServerOptions.defaults().withConnection(behavior));
    }

    /** A read timeout (not end of stream) fails here: the server did not close. */
    private static void assertServerClosed(RawHttpClient raw) throws Exception {
        assertThat(raw.readByte()).as("end of stream after the response").isEqualTo(-1);
    }

    @Test
    void closeAfterNthResponseIsUnannounced() throws Exception {
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive().withCloseAfterResponses(3))) {
            for (String path : PATHS) {
                try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                    for (int i = 0; i < 3; i++) {
                        raw.send(i == 1 ? RawHttpClient.get("/health")
                                : RawHttpClient.post("/v1/completions", STREAM, path));
                        RawHttpClient.Response r = raw.read();
                        assertThat(r.status()).isEqualTo(200);
                        assertThat(r.headers()).doesNotContainKey("connection");
                    }
                    assertServerClosed(raw);
                }
            }
            assertThat(server.acceptedConnections()).isEqualTo(2);
            assertThat(server.serverClosedConnections()).isEqualTo(2);
            assertThat(server.idleClosedConnections()).isZero();
        }
    }

    @Test
    void closeAfterEveryResponseDropsPipelinedRequests() throws Exception {
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive().withCloseAfterResponses(1));
             RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
            byte[] one = RawHttpClient.post("/v1/completions", STREAM);
            byte[] two = new byte[one.length * 2];
            System.arraycopy(one, 0, two, 0, one.length);
            System.arraycopy(one, 0, two, one.length, one.length);
            raw.send(two); // the second request is never answered: the server closes after the first
            RawHttpClient.Response r = raw.read();
            assertThat(r.headers()).doesNotContainKey("connection").containsEntry("transfer-encoding", "chunked");
            assertThat(Sse.data(r.bodyText())).endsWith("[DONE]");
            assertServerClosed(raw);
            assertThat(server.serverClosedConnections()).isEqualTo(1);
        }
    }

    @Test
    void connectionCloseIsAnnouncedOnEveryResponse() throws Exception {
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive().withAnnounceClose(true))) {
            String[][] requests = {{"x-other: 1"}, {"x-script: paced"}, {"x-script: 500"}, {}};
            for (String[] headers : requests) {
                try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                    raw.send(headers.length == 0 ? RawHttpClient.get("/v1/models")
                            : RawHttpClient.post("/v1/completions", STREAM, headers));
                    RawHttpClient.Response r = raw.read();
                    assertThat(new String(r.wire(), StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 ");
                    assertThat(r.headers()).as(String.join(",", headers)).containsEntry("connection", "close");
                    assertServerClosed(raw);
                }
            }
            assertThat(server.acceptedConnections()).isEqualTo(4);
            assertThat(server.serverClosedConnections()).isEqualTo(4);
        }
    }

    @Test
    void http10StreamIsDelimitedByClose() throws Exception {
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive().withHttp10(true))) {
            for (String path : PATHS) {
                try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                    raw.send(RawHttpClient.post("/v1/completions", STREAM, path));
                    RawHttpClient.Response r = raw.read(); // no length: reads up to the server's close
                    String wire = new String(r.wire(), StandardCharsets.UTF_8);
                    assertThat(wire).startsWith("HTTP/1.0 200 OK\r\n");
                    assertThat(r.headers()).doesNotContainKeys("transfer-encoding", "content-length", "connection");
                    // Bare SSE, no chunk sizes: the body starts with the first event and ends with [DONE].
                    assertThat(r.bodyText()).startsWith("data: {").endsWith("data: [DONE]\n\n");
                    assertThat(Sse.data(r.bodyText())).hasSize(4);
                    assertServerClosed(raw);
                }
            }
            assertThat(server.serverClosedConnections()).isEqualTo(2);
        }
    }

    @Test
    void http10WholeAndErrorBodiesHaveContentLengthThenClose() throws Exception {
        try (ScriptedServer server = start(ConnectionBehavior.keepAlive().withHttp10(true))) {
            String[][] requests = {{"x-other: 1"}, {"x-script: 500"}};
            for (String[] headers : requests) {
                try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                    raw.send(RawHttpClient.post("/v1/completions", WHOLE, headers));
                    RawHttpClient.Response r = raw.read();
                    assertThat(new String(r.wire(), StandardCharsets.US_ASCII)).startsWith("HTTP/1.0 ");
                    assertThat(r.headers()).containsKey("content-length").doesNotContainKey("transfer-encoding");
                    assertThat(Sse.parse(r.bodyText()).isObject()).isTrue();
                    assertServerClosed(raw);
                }
            }
        }
    }

    @Test
    void defaultKeepsConnectionsOpenAndCountsClientRequestedCloses() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(script())) {
            try (RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                for (int i = 0; i < 3; i++) {
                    raw.send(RawHttpClient.post("/v1/completions", STREAM));
                    assertThat(raw.read().headers()).doesNotContainKey("connection");
                }
                raw.send(RawHttpClient.post("/v1/completions", STREAM, "connection: close"));
                assertThat(raw.read().headers()).containsEntry("connection", "close");
                assertServerClosed(raw);
            }
            assertThat(server.acceptedConnections()).isEqualTo(1);
            assertThat(server.serverClosedConnections()).isEqualTo(1);
        }
    }
}
