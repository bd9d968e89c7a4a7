package dev.servebench.server;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** A scripted HTTP server on 127.0.0.1 for readiness and cache-reset tests: each path answers from a script. */
final class StubHttpServer implements AutoCloseable {

    /** One answer. */
    record Answer(int status, String body) {}

    /** What one request looked like. */
    record Seen(String method, String path, String authorization, String body) {}

    /** The answer to the n-th request (0-based) on a path. */
    interface Script {
        Answer answer(int n);
    }

    private final HttpServer server;
    private final Map<String, Script> scripts = new ConcurrentHashMap<>();
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
    private final List<Seen> seen = new CopyOnWriteArrayList<>();

    StubHttpServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    StubHttpServer on(String path, Script script) {
        scripts.put(path, script);
        return this;
    }

    StubHttpServer always(String path, int status, String body) {
        return on(path, n -> new Answer(status, body));
    }

    URI baseUrl() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    List<Seen> requests() {
        return List.copyOf(seen);
    }

    List<String> paths() {
        return seen.stream().map(s -> s.method() + " " + s.path()).toList();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        seen.add(new Seen(exchange.getRequestMethod(), path, exchange.getRequestHeaders().getFirst("Authorization"), body));
        Script script = scripts.get(path);
        Answer answer = script == null ? new Answer(404, "{\"error\":\"no route " + path + "\"}")
                : script.answer(counts.computeIfAbsent(path, p -> new AtomicInteger()).getAndIncrement());
        byte[] bytes = answer.body().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(answer.status(), bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
