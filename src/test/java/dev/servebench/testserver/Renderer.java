package dev.servebench.testserver;

import io.netty.buffer.ByteBuf;

/**
 * Renders a scripted response in the byte format vLLM (completions, chat) and SGLang ({@code /generate}) use.
 * Token {@code j} (0-based) reads {@code " t<j>"}; every stream ends with finish reason "length".
 */
final class Renderer {

    private final ApiRequest request;
    private final Plan plan;
    private final HttpWire.Framing framing;
    private final Rendering out;
    private final String eol;
    private final String id;
    /** {@code {"id":..,"object":..,"created":..,"model":..,} } shared by every OpenAI-style event. */
    private final String header;
    private final int completionTokens;
    private final int chunks;
    private final StringBuilder sb = new StringBuilder(256);
    /** SGLang re-sends the text so far in every event. */
    private final StringBuilder cumulative = new StringBuilder();
    private int generated;

    private Renderer(ApiRequest request, Plan plan, Script script, long idNumber, HttpWire.Framing framing,
                     ByteBuf wire) {
        this.request = request;
        this.plan = plan;
        this.framing = framing;
        this.out = new Rendering(wire, !framing.http10(), plan.splitWrites() && request.stream(),
                plan.splitDelayNanos());
        this.eol = plan.crlf() ? "\r\n" : "\n";
        this.id = switch (request.endpoint()) {
            case COMPLETIONS -> "cmpl-" + idNumber;
            case CHAT -> "chatcmpl-" + idNumber;
            case GENERATE -> "%032x".formatted(idNumber);
        };
        String object = request.endpoint() == Endpoint.CHAT
                ? (request.stream() ? "chat.completion.chunk" : "chat.completion")
                : "text_completion";
        this.header = "{\"id\":\"" + id + "\",\"object\":\"" + object + "\",\"created\":"
                + script.createdEpochSeconds() + ",\"model\":" + Json.quote(script.model()) + ",";
        this.completionTokens = request.completionTokens(plan);
        this.chunks = (completionTokens + plan.tokensPerChunk() - 1) / plan.tokensPerChunk();
    }

    /**
     * Renders into {@code wire}. {@code idNumber} becomes the response id; cached responses use 0 for all.
     * Reset and stall faults only mark where the executor stops ({@link Rendering#stopAfterOps()}).
     * {@code framing} sets the HTTP version, a {@code connection: close} header and how whole bodies are framed.
     */
    static Rendering render(ApiRequest request, Plan plan, Script script, long idNumber, HttpWire.Framing framing,
                            ByteBuf wire) {
        Renderer r = new Renderer(request, plan, script, idNumber, framing, wire);
        if (plan.fault() instanceof Fault.HttpError(int status, String body)) {
            r.out.openOp(0);
            r.out.raw(HttpWire.full(framing, status, HttpWire.JSON, body, framing.errors()));
            return r.out.finish();
        }
        return request.stream() ? r.stream() : r.whole();
    }

    private long due(int chunk) {
        return plan.ttftNanos() + chunk * plan.gapNanos();
    }

    private Rendering stream() {
        int errorAt = plan.fault() instanceof Fault.InStreamError e ? Math.min(e.afterChunks(), chunks) : -1;
        int invalidAt = plan.fault() instanceof Fault.InvalidJsonAt i ? Math.min(i.chunk(), chunks) : -1;
        int stopAt = switch (plan.fault()) {
            case Fault.ResetAfter(int k) -> Math.min(k, chunks);
            case Fault.StallAfter(int k) -> Math.min(k, chunks);
            case Fault.None n -> -1;
            case Fault.HttpError h -> -1;
            case Fault.InvalidJsonAt i -> -1;
            case Fault.NoDone n -> -1;
            case Fault.InStreamError e -> -1;
        };
        int sent = errorAt >= 0 ? errorAt : chunks;
        out.openOp(0);
        out.raw(HttpWire.head(framing, 200, HttpWire.SSE, -1));
        if (stopAt == 0) {
            out.stopHere();
        }
        for (int i = 0; i < sent; i++) {
            out.openOp(due(i));
            if (request.endpoint() == Endpoint.CHAT && i == 0) {
                data(chatChoice("{\"role\":\"assistant\",\"content\":\"\"}", false));
            }
            if (plan.pingEvery() > 0 && i % plan.pingEvery() == 0) {
                out.event(": ping" + eol + eol);
            }
            if (plan.emptyEvery() > 0 && i % plan.emptyEvery() == 0) {
                data(textEvent("", false));
            }
            if (invalidAt == i) {
                data(invalidJson());
            }
            int first = i * plan.tokensPerChunk();
            int count = Math.min(plan.tokensPerChunk(), completionTokens - first);
            generated = first + count;
            data(textEvent(tokenText(first, count), i == chunks - 1));
            out.completeChunk(count);
            if (stopAt == i + 1) {
                out.stopHere();
            }
        }
        out.openOp(errorAt >= 0 ? due(errorAt) : due(chunks - 1));
        if (invalidAt >= sent && errorAt < 0) {
            data(invalidJson());
        }
        if (errorAt >= 0 && plan.fault() instanceof Fault.InStreamError e) {
            data(Json.errorEvent(e.message(), e.type(), e.code()));
        } else if (sendUsage()) {
            data(header + "\"choices\":[]," + usage() + "}");
        }
        if (!(plan.fault() instanceof Fault.NoDone)) {
            data("[DONE]");
        }
        if (!framing.http10()) {
            out.raw(HttpWire.CHUNKED_END); // on HTTP/1.0 closing the connection ends the body
        }
        return out.finish();
    }

    /** A non-streaming answer, sent when the last chunk would have been. */
    private Rendering whole() {
        String text = tokenText(0, completionTokens);
        String body = switch (request.endpoint()) {
            case COMPLETIONS -> header + "\"choices\":[{\"index\":0,\"text\":\"" + text
                    + "\",\"logprobs\":null,\"finish_reason\":\"length\"}]," + usage() + "}";
            case CHAT -> header + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\""
                    + text + "\"},\"logprobs\":null,\"finish_reason\":\"length\"}]," + usage() + "}";
            case GENERATE -> generateEvent(text, completionTokens, true);
        };
        boolean stops = plan.fault() instanceof Fault.ResetAfter || plan.fault() instanceof Fault.StallAfter;
        if (stops) {
            out.stopHere();
        }
        out.openOp(due(chunks - 1));
        out.raw(HttpWire.full(framing, 200, HttpWire.JSON, body, framing.whole()));
        out.completeChunk(completionTokens);
        return out.finish();
    }

    private boolean sendUsage() {
        return request.endpoint() != Endpoint.GENERATE && switch (plan.usage()) {
            case REQUEST -> request.includeUsage();
            case ALWAYS -> true;
            case NEVER -> false;
        };
    }

    private String usage() {
        int prompt = request.promptTokens();
        return "\"usage\":{\"prompt_tokens\":" + prompt + ",\"completion_tokens\":" + completionTokens
                + ",\"total_tokens\":" + (prompt + completionTokens) + "}";
    }

    /** A content-bearing event for this endpoint carrying {@code text} (empty for an empty-content chunk). */
    private String textEvent(String text, boolean last) {
        return switch (request.endpoint()) {
            case COMPLETIONS -> header + "\"choices\":[{\"index\":0,\"text\":\"" + text
                    + "\",\"logprobs\":null,\"finish_reason\":" + (last ? "\"length\"" : "null") + "}]}";
            case CHAT -> chatChoice("{\"content\":\"" + text + "\"}", last);
            case GENERATE -> generateEvent(cumulative.append(text), generated, last);
        };
    }

    private String chatChoice(String delta, boolean last) {
        return header + "\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"logprobs\":null,\"finish_reason\":"
                + (last ? "\"length\"" : "null") + "}]}";
    }

    private String generateEvent(CharSequence text, int done, boolean last) {
        String finish = last ? "{\"type\":\"length\",\"length\":" + done + "}" : "null";
        return "{\"text\":\"" + text + "\",\"meta_info\":{\"id\":\"" + id + "\",\"prompt_tokens\":"
                + request.promptTokens() + ",\"completion_tokens\":" + done + ",\"finish_reason\":" + finish + "}}";
    }

    /** Cut off mid-object, so any JSON parser rejects it. */
    private String invalidJson() {
        return "{\"id\":\"" + id + "\",\"choices\":[{\"index\":0,\"text\":";
    }

    private String tokenText(int first, int count) {
        sb.setLength(0);
        for (int j = first; j < first + count; j++) {
            sb.append(" t").append(j);
        }
        return sb.toString();
    }

    private void data(CharSequence json) {
        out.event("data: " + json + eol + eol);
    }
}
