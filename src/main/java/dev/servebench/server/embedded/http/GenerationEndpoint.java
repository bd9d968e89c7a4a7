package dev.servebench.server.embedded.http;

import dev.servebench.server.embedded.InferenceEngine;
import dev.servebench.server.embedded.TokenSink.FinishReason;
import io.helidon.http.HeaderNames;
import io.helidon.http.RequestException;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;

/**
 * {@code POST /v1/completions} and {@code POST /v1/chat/completions}. Runs on a Helidon virtual thread per
 * request: validate, submit to the engine, then take the stream's events and write them (see
 * {@link SseWriter}) or collect them into one JSON body.
 */
final class GenerationEndpoint implements Handler {

    private final Api api;
    private final InferenceEngine engine;
    private final RequestParser parser;
    private final ServerMetrics metrics;
    private final InFlight inFlight;
    private final String model;
    private final ReadDeadline deadline;

    GenerationEndpoint(Api api, InferenceEngine engine, ServerMetrics metrics, InFlight inFlight, ReadDeadline deadline) {
        this.api = api;
        this.engine = engine;
        this.parser = new RequestParser(engine);
        this.metrics = metrics;
        this.inFlight = inFlight;
        this.model = engine.info().modelName();
        this.deadline = deadline;
    }

    @Override
    public void handle(ServerRequest req, ServerResponse res) {
        GenerationCall call = parser.parse(api, body(req));
        TokenStream stream = new TokenStream();
        inFlight.enter(stream);
        try {
            try {
                stream.attach(engine.submit(call.request(), stream));
            } catch (IllegalArgumentException e) {
                // the contract's validation failure, e.g. prompt + max_tokens beyond the slot context
                throw ApiException.badRequest(e.getMessage(), null);
            } catch (IllegalStateException e) {
                throw ApiException.unavailable("engine is not available: " + e.getMessage());
            }
            ChunkRenderer renderer = new ChunkRenderer(api, model, System.currentTimeMillis() / 1000);
            String outcome = "error"; // unless the answer says otherwise
            try {
                outcome = call.stream()
                        ? new SseWriter(call, stream, renderer, res).run()
                        : whole(call, stream, renderer, res);
            } finally {
                metrics.finished(outcome);
            }
        } finally {
            inFlight.exit(stream);
        }
    }

    private byte[] body(ServerRequest req) {
        try {
            return deadline.run(() -> req.content().as(byte[].class));
        } catch (RequestException e) {
            // a chunked body over maxRequestBytes ends up here; a declared length over it never reaches routing
            throw new ApiException(e.status().code(), "invalid_request_error", "request body rejected: "
                    + e.getMessage(), null, null);
        } catch (ReadDeadline.Expired e) {
            throw new ApiException(408, "invalid_request_error", e.getMessage(), null, null);
        } catch (RuntimeException e) {
            // the client closed the connection mid-body; the answer will not reach it, but is well-formed
            throw ApiException.badRequest("request body could not be read: " + e, null);
        }
    }

    /** Non-streaming: the generation's text in one body. Returns the finished_reason metric label. */
    private static String whole(GenerationCall call, TokenStream stream, ChunkRenderer renderer, ServerResponse res) {
        StringBuilder text = new StringBuilder();
        while (true) {
            TokenStream.Event event;
            try {
                event = stream.take();
            } catch (InterruptedException e) {
                stream.cancel();
                Thread.currentThread().interrupt();
                throw ApiException.unavailable("server is shutting down");
            }
            switch (event) {
                case TokenStream.Token t -> text.append(t.text());
                case TokenStream.Finished f when f.reason() == FinishReason.CANCELLED ->
                        throw new ApiException(500, "server_error", "generation was cancelled", null, null);
                case TokenStream.Finished f -> {
                    String reason = SseWriter.reasonName(f.reason());
                    byte[] body = renderer.body(text.toString(), reason, call.promptTokens(), f.completionTokens())
                            .getBytes(StandardCharsets.UTF_8);
                    try {
                        res.header(HeaderNames.CONTENT_TYPE, "application/json").send(body);
                    } catch (RuntimeException clientGone) {
                        return "abort"; // generated in full, but nobody took the answer
                    }
                    return reason;
                }
                case TokenStream.Failed x -> throw x.shutdown()
                        ? ApiException.unavailable(x.message())
                        : new ApiException(500, "server_error", x.message(), null, null);
            }
        }
    }
}
