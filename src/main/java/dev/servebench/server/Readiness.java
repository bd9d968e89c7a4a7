package dev.servebench.server;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.client.Backend;
import dev.servebench.client.Endpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * Waits until a server really serves: a one-token completion on the backend's own endpoint succeeds. An open
 * port or a 200 from {@code /health} is not enough, since SGLang and vLLM answer those while still loading or
 * warming up, and the first measured requests would then pay for it.
 */
public final class Readiness {

    /** What the check found. @param model the model name it sent (the spec's or the first served id); empty = none */
    public record Ready(Optional<String> model, Duration elapsed, int attempts) {
        public Ready {
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(elapsed, "elapsed");
        }
    }

    static final Duration FIRST_PAUSE = Duration.ofMillis(100);
    static final Duration LONGEST_PAUSE = Duration.ofSeconds(2);
    /** Bound on one attempt: a cold server's first completion can take a while (CUDA graphs, JIT). */
    static final Duration LONGEST_REQUEST = Duration.ofSeconds(60);
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    static final String PROMPT = "Hello";
    /** Client errors that mean "busy", not "wrong request": still worth waiting for. */
    private static final Set<Integer> TRANSIENT_CLIENT_ERRORS = Set.of(408, 425, 429);
    private static final ObjectMapper JSON = new ObjectMapper();

    private Readiness() {}

    /** One try: done, worth another, or hopeless. */
    private sealed interface Attempt {
        record Success(Optional<String> model) implements Attempt {}

        record Retry(String error) implements Attempt {}

        record Hopeless(String error) implements Attempt {}
    }

    /**
     * Polls with growing pauses (0.1 s up to 2 s) until a one-token completion succeeds.
     *
     * @param model      sent as is; empty = the first id of {@code GET /v1/models}, or no model field when the
     *                   server lists none ({@code /generate} never needs one)
     * @param stillAlive false once the server's process or container has ended: stop waiting at once
     * @throws ServerStartException at the timeout, when {@code stillAlive} turns false, or on an answer that
     *                              waiting will not change (4xx other than 408, 425, 429)
     */
    public static Ready await(URI baseUrl, Backend backend, Optional<String> model, Optional<String> apiKey,
                              Duration timeout, BooleanSupplier stillAlive) throws ServerStartException, InterruptedException {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(stillAlive, "stillAlive");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout (" + timeout + ") must be positive");
        }
        String where = Redaction.url(baseUrl);   // messages never carry URL credentials
        long start = System.nanoTime();
        long deadline = start + timeout.toNanos();
        Duration pause = FIRST_PAUSE;
        String lastError = "no attempt finished";
        int attempts = 0;
        try (HttpClient http = ServerHttp.newClient(min(CONNECT_TIMEOUT, timeout))) {
            while (true) {
                if (!stillAlive.getAsBoolean()) {
                    throw new ServerStartException(ServerStartException.Reason.EXITED, "server at " + where
                            + " ended before it was ready (after " + ServerHttp.seconds(since(start)) + ", " + attempts
                            + " attempts; last error: " + lastError + ")");
                }
                Duration left = Duration.ofNanos(deadline - System.nanoTime());
                if (left.isNegative() || left.isZero()) {
                    throw timedOut(where, timeout, start, attempts, lastError);
                }
                attempts++;
                Attempt attempt = attempt(http, baseUrl, backend, model, apiKey, min(left, LONGEST_REQUEST));
                switch (attempt) {
                    case Attempt.Success success -> {
                        return new Ready(success.model(), since(start), attempts);
                    }
                    case Attempt.Hopeless hopeless -> throw new ServerStartException(
                            ServerStartException.Reason.REJECTED, "server at " + where + " is not usable: "
                            + hopeless.error() + " (after " + ServerHttp.seconds(since(start)) + ")");
                    case Attempt.Retry retry -> lastError = retry.error();
                }
                long sleepNanos = Math.min(pause.toNanos(), deadline - System.nanoTime());
                if (sleepNanos > 0) {
                    Thread.sleep(Duration.ofNanos(sleepNanos));
                }
                pause = min(Duration.ofMillis(pause.toMillis() * 3 / 2), LONGEST_PAUSE);
            }
        }
    }

    private static ServerStartException timedOut(String where, Duration timeout, long start, int attempts,
                                                 String lastError) {
        return new ServerStartException(ServerStartException.Reason.TIMED_OUT, "server at " + where
                + " was not ready within the ready timeout of " + ServerHttp.seconds(timeout) + " (waited "
                + ServerHttp.seconds(since(start)) + ", " + attempts + " attempts); last error: " + lastError);
    }

    private static Attempt attempt(HttpClient http, URI baseUrl, Backend backend, Optional<String> model,
                                   Optional<String> apiKey, Duration requestTimeout) throws InterruptedException {
        Endpoint endpoint = backend.endpoint();
        Optional<String> sent = model;
        if (sent.isEmpty() && endpoint != Endpoint.SGLANG_GENERATE) {
            URI models = ServerHttp.resolve(baseUrl, "/v1/models");
            HttpResponse<String> listed;
            try {
                listed = http.send(ServerHttp.request(models, apiKey, requestTimeout).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
            } catch (IOException e) {
                return new Attempt.Retry("GET /v1/models: " + ServerHttp.describe(e));
            }
            if (listed.statusCode() == 401 || listed.statusCode() == 403) {
                return new Attempt.Hopeless(rejection("GET /v1/models", listed, apiKey));
            }
            if (listed.statusCode() >= 500 || TRANSIENT_CLIENT_ERRORS.contains(listed.statusCode())) {
                return new Attempt.Retry("GET /v1/models answered HTTP " + listed.statusCode() + ": "
                        + ServerHttp.preview(listed.body()));
            }
            // Any other answer (a list, 404 from a server without the route, an odd body): ask without a model.
            sent = listed.statusCode() == 200 ? firstModelId(listed.body()) : Optional.empty();
        }
        URI uri = ServerHttp.resolve(baseUrl, endpoint.path());
        String what = "POST " + endpoint.path();
        HttpResponse<String> answer;
        try {
            answer = http.send(ServerHttp.request(uri, apiKey, requestTimeout).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(oneTokenBody(endpoint, sent))).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            return new Attempt.Retry(what + ": " + ServerHttp.describe(e));
        }
        int status = answer.statusCode();
        if (status == 200) {
            return isCompletion(endpoint, answer.body()) ? new Attempt.Success(sent)
                    : new Attempt.Retry(what + " answered 200 but not with a completion: " + ServerHttp.preview(answer.body()));
        }
        if (status >= 400 && status < 500 && !TRANSIENT_CLIENT_ERRORS.contains(status)) {
            return new Attempt.Hopeless(rejection(what, answer, apiKey) + (status == 404 || status == 405
                    ? " (does target.backend " + backend.cliName() + " match the server?)" : ""));
        }
        return new Attempt.Retry(what + " answered HTTP " + status + ": " + ServerHttp.preview(answer.body()));
    }

    private static String rejection(String what, HttpResponse<String> answer, Optional<String> apiKey) {
        String hint = switch (answer.statusCode()) {
            case 401, 403 -> apiKey.isPresent() ? " (the API key from OPENAI_API_KEY was refused)"
                    : " (no API key was sent: set OPENAI_API_KEY)";
            default -> "";
        };
        return what + " answered HTTP " + answer.statusCode() + ": " + ServerHttp.preview(answer.body()) + hint;
    }

    /** The smallest request that exercises the whole serving path: one generated token, greedy, not streamed. */
    static String oneTokenBody(Endpoint endpoint, Optional<String> model) {
        ObjectNode body = JSON.createObjectNode();
        switch (endpoint) {
            case COMPLETIONS -> {
                model.ifPresent(m -> body.put("model", m));
                body.put("prompt", PROMPT).put("max_tokens", 1).put("temperature", 0).put("stream", false);
            }
            case CHAT_COMPLETIONS -> {
                model.ifPresent(m -> body.put("model", m));
                body.putArray("messages").addObject().put("role", "user").put("content", PROMPT);
                body.put("max_tokens", 1).put("temperature", 0).put("stream", false);
            }
            case SGLANG_GENERATE -> {
                body.put("text", PROMPT);
                body.putObject("sampling_params").put("max_new_tokens", 1).put("temperature", 0);
            }
        }
        return body.toString();
    }

    /** OpenAI answers carry a non-empty {@code choices} array; SGLang's {@code /generate} a {@code text}. */
    static boolean isCompletion(Endpoint endpoint, String body) {
        try {
            JsonNode root = JSON.readTree(body);
            return switch (endpoint) {
                case COMPLETIONS, CHAT_COMPLETIONS -> root.path("choices").isArray() && !root.path("choices").isEmpty();
                case SGLANG_GENERATE -> root.path("text").isTextual();
            };
        } catch (JacksonException e) {
            return false;
        }
    }

    static Optional<String> firstModelId(String body) {
        try {
            JsonNode data = JSON.readTree(body).path("data");
            return data.isArray() && !data.isEmpty() && data.get(0).path("id").isTextual()
                    ? Optional.of(data.get(0).path("id").asText())
                    : Optional.empty();
        } catch (JacksonException e) {
            return Optional.empty();
        }
    }

    private static Duration since(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
