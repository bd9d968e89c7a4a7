package dev.servebench.server.embedded.http;

import dev.servebench.server.embedded.EngineInfo;
import dev.servebench.server.embedded.InferenceEngine;
import io.helidon.http.DirectHandler;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;

/** The small endpoints, the error answers, and the wrapper that turns {@link ApiException}s into them. */
final class Endpoints {

    private static final System.Logger LOG = System.getLogger(Endpoints.class.getName());
    static final String JSON = "application/json";

    private Endpoints() {}

    /** Answers an {@link ApiException} (or an unexpected failure, as 500) with an OpenAI error object. */
    static Handler guarded(Handler handler) {
        return (req, res) -> {
            try {
                handler.handle(req, res);
            } catch (ApiException e) {
                sendError(res, e);
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "request " + req.prologue().method().text() + " " + req.path().path() + " failed", e);
                sendError(res, new ApiException(500, "server_error", "internal error: " + e, null, null));
            }
        };
    }

    private static void sendError(ServerResponse res, ApiException e) {
        if (res.isSent()) {
            return; // a stream already started; its own error event was the answer
        }
        try {
            res.status(e.status()).header(HeaderNames.CONTENT_TYPE, JSON).send(e.json().getBytes(StandardCharsets.UTF_8));
        } catch (RuntimeException gone) {
            // the client is gone (or the read deadline closed its socket): nobody to tell
        }
    }

    /** {@code GET /health}: 200 with an empty body (as vLLM) while the engine answers and the server is not stopping. */
    static Handler health(InferenceEngine engine, InFlight inFlight) {
        return (req, res) -> {
            if (inFlight.closing()) {
                throw ApiException.unavailable("server is shutting down");
            }
            try {
                engine.stats();
            } catch (RuntimeException e) {
                throw ApiException.unavailable("engine is not available: " + e.getMessage());
            }
            res.send();
        };
    }

    /** {@code GET /v1/models}: the OpenAI model list with the engine's one model. */
    static Handler models(EngineInfo info, long startedEpochSeconds) {
        String body = "{\"object\":\"list\",\"data\":[{\"id\":" + Json.quote(info.modelName())
                + ",\"object\":\"model\",\"created\":" + startedEpochSeconds + ",\"owned_by\":\"servebench\""
                + ",\"root\":" + Json.quote(info.modelName()) + ",\"max_model_len\":" + info.contextPerSlot() + ",\"vocab_size\":" + info.vocabSize() + "}]}";
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        return (req, res) -> res.header(HeaderNames.CONTENT_TYPE, JSON).send(bytes);
    }

    /** {@code GET /metrics}. */
    static Handler metrics(ServerMetrics metrics) {
        return (req, res) -> res.header(HeaderNames.CONTENT_TYPE, ServerMetrics.CONTENT_TYPE).send(metrics.scrape());
    }

    static Handler methodNotAllowed(String allowed) {
        return (req, res) -> {
            res.header(HeaderNames.ALLOW, allowed);
            throw new ApiException(405, "invalid_request_error", "method " + req.prologue().method().text()
                    + " is not allowed on " + req.path().path() + "; use " + allowed, null, null);
        };
    }

    static Handler notFound() {
        return (req, res) -> {
            throw new ApiException(404, "invalid_request_error", "no endpoint " + req.prologue().method().text() + " "
                    + req.path().path() + " (served: POST /v1/completions, POST /v1/chat/completions, GET /v1/models, "
                    + "GET /health, GET /metrics)", null, null);
        };
    }

    /**
     * Errors Helidon answers before routing (malformed HTTP, a declared body over the limit): the same JSON
     * error object instead of Helidon's plain text, and counted on /metrics.
     */
    static DirectHandler direct(ServerMetrics metrics) {
        return (request, eventType, status, headers, message) -> {
            metrics.httpRequest(request.path(), status.code());
            String text = status.code() == 413
                    ? "request body is larger than the server's limit" : message == null || message.isBlank()
                    ? status.reasonPhrase() : message;
            String type = status.code() >= 500 ? "server_error" : "invalid_request_error";
            return DirectHandler.TransportResponse.builder()
                    .status(status)
                    .headers(headers)
                    .header(HeaderNames.CONTENT_TYPE, JSON)
                    .entity(ApiException.errorJson(text, type, null, null))
                    .keepAlive(eventType.keepAlive())
                    .build();
        };
    }
}
