package dev.servebench.server.embedded.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Not a test: a main that exercises the server from the shaded jar, where Helidon's service discovery
 * depends on how maven-shade merged {@code META-INF/helidon/*} and {@code META-INF/services/*}. Run:
 * {@code java -cp target/servebench.jar:target/test-classes dev.servebench.server.embedded.http.ShadedJarSmoke}.
 * Prints one line per check and exits 1 when any fails.
 */
public final class ShadedJarSmoke {

    private ShadedJarSmoke() {}

    public static void main(String[] args) throws Exception {
        System.out.println("server classes from: " + EmbeddedServer.class.getProtectionDomain().getCodeSource().getLocation());
        System.out.println("helidon classes from: " + io.helidon.webserver.WebServer.class.getProtectionDomain().getCodeSource().getLocation());
        int failures = 0;
        try (ScriptedEngine engine = new ScriptedEngine(2, 256, Duration.ofMillis(1), 3);
             EmbeddedServer server = EmbeddedServer.start(engine, ServerSettings.defaults().withPort(0).withMaxRequestBytes(2048));
             HttpClient http = HttpClient.newHttpClient()) {
            String base = "http://127.0.0.1:" + server.port();
            failures += check(http, post(base + "/v1/completions",
                    "{\"prompt\":\"a b\",\"max_tokens\":3,\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}"),
                    200, "\"completion_tokens\":3");
            failures += check(http, post(base + "/v1/chat/completions",
                    "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":9}"), 200, "\"finish_reason\":\"stop\"");
            failures += check(http, post(base + "/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":\"ten\"}"), 400, "\"param\":\"max_tokens\"");
            failures += check(http, post(base + "/v1/completions", "{\"prompt\":\"" + "z ".repeat(2000) + "\"}"), 413, "{\"error\"");
            failures += check(http, HttpRequest.newBuilder(URI.create(base + "/v1/models")).build(), 200, "scripted-model");
            failures += check(http, HttpRequest.newBuilder(URI.create(base + "/nope")).build(), 404, "{\"error\"");
            failures += check(http, HttpRequest.newBuilder(URI.create(base + "/health")).build(), 200, "");
            failures += check(http, HttpRequest.newBuilder(URI.create(base + "/metrics")).build(), 200,
                    "servebench_generation_tokens_total");
            failures += check(http, HttpRequest.newBuilder(URI.create(base + "/v1/models")).header("Accept-Encoding", "gzip").build(),
                    200, "");
        }
        System.out.println(failures == 0 ? "SMOKE OK" : "SMOKE FAILED: " + failures);
        System.exit(failures == 0 ? 0 : 1);
    }

    private static HttpRequest post(String uri, String json) {
        return HttpRequest.newBuilder(URI.create(uri)).POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    private static int check(HttpClient http, HttpRequest request, int status, String contains) throws Exception {
        HttpResponse<String> res = http.send(request, HttpResponse.BodyHandlers.ofString());
        boolean ok = res.statusCode() == status && res.body().contains(contains);
        String encoding = res.headers().firstValue("content-encoding").orElse("-");
        System.out.println((ok ? "ok   " : "FAIL ") + request.method() + " " + request.uri().getPath() + " -> " + res.statusCode()
                + " (content-encoding " + encoding + ") " + abbreviate(res.body()));
        return ok ? 0 : 1;
    }

    private static String abbreviate(String body) {
        String line = body.replace("\n", "\\n");
        return line.length() > 110 ? line.substring(0, 110) + "…" : line;
    }
}
