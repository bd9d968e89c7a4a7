package dev.servebench.server;

import dev.servebench.client.Backend;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Empties a server's prefix cache between load points, so that one point's prompts do not warm the next's.
 * SGLang offers {@code POST /flush_cache} (400 while requests are running); vLLM offers
 * {@code POST /reset_prefix_cache} only with {@code VLLM_SERVER_DEV_MODE=1}, and 404 otherwise. The endpoint
 * the backend's name suggests is tried first, then the other; 404 or 405 from both means there is none.
 */
public final class CacheResets {

    static final String SGLANG_FLUSH = "/flush_cache";
    static final String VLLM_RESET = "/reset_prefix_cache";
    /** A flush waits for the scheduler's next idle moment; more than this means something is wrong. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private CacheResets() {}

    /** The reset endpoints to try, most likely first. */
    static List<String> candidates(Backend backend) {
        return backend.cliName().startsWith("vllm") ? List.of(VLLM_RESET, SGLANG_FLUSH) : List.of(SGLANG_FLUSH, VLLM_RESET);
    }

    /** Tries {@link #candidates(Backend)} in turn; never throws. */
    public static CacheReset attempt(URI baseUrl, Backend backend, Optional<String> apiKey) {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(apiKey, "apiKey");
        List<String> absent = new ArrayList<>();
        try (HttpClient http = ServerHttp.newClient(Duration.ofSeconds(5))) {
            for (String path : candidates(backend)) {
                URI uri = ServerHttp.resolve(baseUrl, path);
                HttpResponse<String> answer;
                try {
                    answer = http.send(ServerHttp.request(uri, apiKey, REQUEST_TIMEOUT)
                            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                } catch (IOException e) {
                    return new CacheReset.Failed("POST " + Redaction.url(uri) + ": " + ServerHttp.describe(e));
                }
                int status = answer.statusCode();
                if (status >= 200 && status < 300) {
                    return new CacheReset.Done(uri);
                }
                if (status == 404 || status == 405) {
                    absent.add("POST " + path + " answered " + status);
                    continue;
                }
                return new CacheReset.Failed("POST " + Redaction.url(uri) + " answered HTTP " + status + ": "
                        + ServerHttp.preview(answer.body()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new CacheReset.Failed("interrupted while resetting the prefix cache at " + Redaction.url(baseUrl));
        }
        return new CacheReset.NotOffered("the server has no reset endpoint (" + String.join(", ", absent)
                + "; vLLM offers one only with VLLM_SERVER_DEV_MODE=1)");
    }
}
