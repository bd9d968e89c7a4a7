package dev.servebench.server.embedded.http;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Renders one response in vLLM's byte format (the shapes servebench's chunk parsers read). Key order and
 * the {@code "logprobs":null} members follow vLLM's output so that a byte diff against it stays small.
 */
final class ChunkRenderer {

    static final String DONE = "data: [DONE]\n\n";

    private final Api api;
    /** {@code {"id":…,"object":…,"created":…,"model":…,} } shared by every chunk of the stream. */
    private final String header;
    private final String id;
    private final long created;
    private final String model;

    ChunkRenderer(Api api, String model, long createdEpochSeconds) {
        this.api = api;
        this.model = model;
        this.created = createdEpochSeconds;
        // vLLM: prefix + 32 random hex digits
        byte[] random = new byte[16];
        ThreadLocalRandom.current().nextBytes(random);
        this.id = api.idPrefix() + HexFormat.of().formatHex(random);
        this.header = head(api == Api.CHAT ? "chat.completion.chunk" : "text_completion");
    }

    String id() {
        return id;
    }

    static String sse(String json) {
        return "data: " + json + "\n\n";
    }

    /** Chat only: the first chunk, sent together with the first token as vLLM does. */
    String roleChunk() {
        return header + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},"
                + "\"logprobs\":null,\"finish_reason\":null}]}";
    }

    /** One token; {@code finishReason} null except on the stream's last choice chunk. */
    String tokenChunk(String text, String finishReason) {
        String reason = finishReason == null ? "null" : Json.quote(finishReason);
        return switch (api) {
            case COMPLETIONS -> header + "\"choices\":[{\"index\":0,\"text\":" + Json.quote(text)
                    + ",\"logprobs\":null,\"finish_reason\":" + reason + "}]}";
            case CHAT -> header + "\"choices\":[{\"index\":0,\"delta\":{\"content\":" + Json.quote(text)
                    + "},\"logprobs\":null,\"finish_reason\":" + reason + "}]}";
        };
    }

    /** The usage-only chunk of {@code stream_options.include_usage}: empty choices, then the counts. */
    String usageChunk(int promptTokens, int completionTokens) {
        return header + "\"choices\":[]," + usage(promptTokens, completionTokens) + "}";
    }

    /** The whole non-streaming answer. */
    String body(String text, String finishReason, int promptTokens, int completionTokens) {
        String choice = switch (api) {
            case COMPLETIONS -> "{\"index\":0,\"text\":" + Json.quote(text);
            case CHAT -> "{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":" + Json.quote(text) + "}";
        };
        String object = api == Api.CHAT ? "chat.completion" : "text_completion";
        return head(object) + "\"choices\":[" + choice + ",\"logprobs\":null,\"finish_reason\":"
                + Json.quote(finishReason) + "}]," + usage(promptTokens, completionTokens) + "}";
    }

    private String head(String object) {
        return "{\"id\":\"" + id + "\",\"object\":\"" + object + "\",\"created\":" + created + ",\"model\":"
                + Json.quote(model) + ",";
    }

    private static String usage(int promptTokens, int completionTokens) {
        return "\"usage\":{\"prompt_tokens\":" + promptTokens + ",\"completion_tokens\":" + completionTokens
                + ",\"total_tokens\":" + (promptTokens + completionTokens) + "}";
    }
}
