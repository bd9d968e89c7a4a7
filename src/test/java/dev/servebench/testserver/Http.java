package dev.servebench.testserver;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** JDK HttpClient shortcuts for the tests. */
final class Http {

    static final HttpClient CLIENT = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    private Http() {
    }

    static HttpRequest.Builder request(ScriptedServer server, String path) {
        return HttpRequest.newBuilder(URI.create(server.baseUri() + path)).timeout(Duration.ofSeconds(5));
    }

    static HttpResponse<String> post(ScriptedServer server, String path, String json, String... headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder b = request(server, path)
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return CLIENT.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> get(ScriptedServer server, String path) throws IOException, InterruptedException {
        return CLIENT.send(request(server, path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }
}
