package dev.servebench.server.embedded.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/** A server on an ephemeral loopback port in front of a {@link ScriptedEngine}, and a JDK HTTP client. */
final class ServerFixture implements AutoCloseable {

    final ScriptedEngine engine;
    final EmbeddedServer server;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    ServerFixture(ScriptedEngine engine) {
        this(engine, ServerSettings.defaults().withPort(0));
    }

    ServerFixture(ScriptedEngine engine, ServerSettings settings) {
        this.engine = engine;
        this.server = EmbeddedServer.start(engine, settings);
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.port() + path);
    }

    HttpResponse<String> post(String path, String json) {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The {@code data:} payloads of an SSE body, in order. */
    static List<String> events(String body) {
        return Arrays.stream(body.split("\n\n")).filter(e -> !e.isBlank()).map(e -> {
            if (!e.startsWith("data: ")) {
                throw new AssertionError("not an SSE data event: " + e);
            }
            return e.substring("data: ".length());
        }).toList();
    }

    @Override
    public void close() {
        http.close();
        server.close();
        engine.close();
    }
}
