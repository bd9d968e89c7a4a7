package dev.servebench.server.embedded.http;

import dev.servebench.server.embedded.TokenSink.FinishReason;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes one generation as server-sent events, vLLM style: one chunk per token, each flushed on its own (the
 * client timestamps every chunk, so batching writes would falsify inter-token latency); the chunk of token
 * number max_tokens carries {@code finish_reason "length"}; an end the engine reports otherwise (EOS: "stop")
 * gets a final chunk with empty text carrying the reason, as vLLM's EOS chunk has empty text; then the optional
 * usage chunk and {@code data: [DONE]}. An error (engine failure, server stop) becomes
 * {@code data: {"error":{…}}} followed by {@code [DONE]}, as vLLM does.
 *
 * <p>A failed write means the client is gone: the generation is cancelled at once so its slot serves the
 * next request. (HTTP/1.1 gives no earlier signal while the handler is busy writing; a client that leaves while
 * its request still waits for a slot is noticed at its first token.)
 */
final class SseWriter {

    /** The client went away; thrown by {@link #send} only. */
    private static final class ClientGone extends Exception {
        ClientGone(Throwable cause) {
            super(cause.toString(), cause, false, false);
        }
    }

    private final GenerationCall call;
    private final TokenStream stream;
    private final ChunkRenderer renderer;
    private final ServerResponse res;
    private OutputStream out;
    private int tokens;
    private boolean finishSent;

    SseWriter(GenerationCall call, TokenStream stream, ChunkRenderer renderer, ServerResponse res) {
        this.call = call;
        this.stream = stream;
        this.renderer = renderer;
        this.res = res;
    }

    static String reasonName(FinishReason reason) {
        return switch (reason) {
            case LENGTH -> "length";
            case STOP -> "stop";
            case CANCELLED -> "abort";
        };
    }

    /** Streams until the generation ends; returns the finished_reason metric label. */
    String run() {
        res.status(200)
                .header(HeaderNames.CONTENT_TYPE, "text/event-stream; charset=utf-8")
                .header(HeaderNames.CACHE_CONTROL, "no-cache");
        out = res.outputStream();
        try {
            // Helidon sends the status line and headers with the first chunk (a flush before any data is a
            // no-op), so a queued request shows nothing until its first token; vLLM sends headers at once.
            String outcome = events();
            close();
            return outcome;
        } catch (ClientGone e) {
            stream.cancel();
            return "abort";
        } catch (InterruptedException e) {
            // Helidon interrupts handlers it gives up on at stop; the connection is going away anyway
            stream.cancel();
            Thread.currentThread().interrupt();
            return "error";
        }
    }

    private String events() throws ClientGone, InterruptedException {
        int maxTokens = call.request().maxTokens();
        while (true) {
            switch (stream.take()) {
                case TokenStream.Token t -> {
                    if (finishSent) {
                        continue; // an engine overrunning max_tokens; the client has its finish already
                    }
                    tokens++;
                    finishSent = tokens >= maxTokens;
                    String chunk = ChunkRenderer.sse(renderer.tokenChunk(t.text(), finishSent ? "length" : null));
                    send(tokens == 1 && call.api() == Api.CHAT ? ChunkRenderer.sse(renderer.roleChunk()) + chunk : chunk);
                }
                case TokenStream.Finished f when f.reason() == FinishReason.CANCELLED -> {
                    send(errorEvent("generation was cancelled") + ChunkRenderer.DONE);
                    return "error";
                }
                case TokenStream.Finished f -> {
                    StringBuilder tail = new StringBuilder();
                    if (tokens == 0 && call.api() == Api.CHAT) {
                        tail.append(ChunkRenderer.sse(renderer.roleChunk()));
                    }
                    if (!finishSent) {
                        tail.append(ChunkRenderer.sse(renderer.tokenChunk("", reasonName(f.reason()))));
                    }
                    if (call.includeUsage()) {
                        tail.append(ChunkRenderer.sse(renderer.usageChunk(call.promptTokens(), f.completionTokens())));
                    }
                    send(tail.append(ChunkRenderer.DONE).toString());
                    return reasonName(f.reason());
                }
                case TokenStream.Failed x -> {
                    send(errorEvent(x.message()) + ChunkRenderer.DONE);
                    return "error";
                }
            }
        }
    }

    private static String errorEvent(String message) {
        return ChunkRenderer.sse(ApiException.errorJson(message, "server_error", null, null));
    }

    /**
     * Writes {@code text} as one HTTP chunk. Helidon's response stream holds back only the very first write
     * (to send a Content-Length if the body ends there); flush releases it, later writes go straight out.
     */
    private void send(String text) throws ClientGone {
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException | RuntimeException e) {
            // Helidon reports a closed socket as an unchecked exception whose type varies by where it is caught
            throw new ClientGone(e);
        }
    }

    /** Ends the chunked body; the generation is complete, so a client gone by now changes nothing. */
    private void close() {
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            // nothing left to cancel
        }
    }
}
