package dev.servebench.testserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import java.io.IOException;

/**
 * The fields of a generation request that shape the scripted answer.
 *
 * @param maxTokens    requested completion length, or 0 when the request names none (the plan's default applies)
 * @param promptTokens token ids counted, or text length / 4 rounded up; at least 1
 */
record ApiRequest(Endpoint endpoint, boolean stream, boolean includeUsage, int maxTokens, int promptTokens) {

    /** Bounds memory: a stream is rendered whole before it is paced out. */
    static final int MAX_TOKENS = 65_536;
    /** SGLang re-sends the whole text in every event, so its size grows with the square of the length. */
    static final int MAX_GENERATE_TOKENS = 4_096;

    ApiRequest {
        if (maxTokens < 0) {
            throw new IllegalArgumentException("maxTokens (" + maxTokens + ") must be >= 0");
        }
        if (promptTokens < 1) {
            throw new IllegalArgumentException("promptTokens (" + promptTokens + ") must be >= 1");
        }
    }

    /** Parses a JSON body; {@link BadRequest} carries a message fit for a 400 answer. */
    static ApiRequest parse(Endpoint endpoint, ByteBuf body) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree((java.io.InputStream) new ByteBufInputStream(body.duplicate()));
        } catch (JsonProcessingException e) {
            throw new BadRequest("request body is not valid JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new BadRequest("request body is unreadable: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new BadRequest("request body must be a JSON object");
        }
        boolean stream = root.path("stream").asBoolean(false);
        boolean includeUsage = root.path("stream_options").path("include_usage").asBoolean(false);
        return switch (endpoint) {
            case COMPLETIONS -> new ApiRequest(endpoint, stream, includeUsage,
                    maxTokens(root, "max_tokens", MAX_TOKENS), promptTokens(root.path("prompt")));
            case CHAT -> new ApiRequest(endpoint, stream, includeUsage,
                    maxTokens(root, root.has("max_completion_tokens") ? "max_completion_tokens" : "max_tokens",
                            MAX_TOKENS),
                    chatPromptTokens(root.path("messages")));
            case GENERATE -> new ApiRequest(endpoint, stream, includeUsage,
                    maxTokens(root.path("sampling_params"), "max_new_tokens", MAX_GENERATE_TOKENS),
                    root.has("input_ids") ? promptTokens(root.path("input_ids")) : promptTokens(root.path("text")));
        };
    }

    /** The completion length to generate under {@code plan}. */
    int completionTokens(Plan plan) {
        return maxTokens > 0 ? maxTokens : plan.defaultMaxTokens();
    }

    private static int maxTokens(JsonNode parent, String field, int limit) {
        JsonNode node = parent.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return 0;
        }
        if (!node.canConvertToInt() || !node.isIntegralNumber() || node.intValue() < 1 || node.intValue() > limit) {
            throw new BadRequest(field + " (" + node + ") must be an integer in 1.." + limit);
        }
        return node.intValue();
    }

    private static int promptTokens(JsonNode prompt) {
        if (prompt.isTextual()) {
            return textTokens(prompt.textValue().length());
        }
        if (!prompt.isArray() || prompt.isEmpty()) {
            return 1;
        }
        JsonNode first = prompt.get(0);
        if (first.isNumber()) {
            return prompt.size();
        }
        // Batched prompts (lists of strings or of id lists) count every member.
        long total = 0;
        for (JsonNode member : prompt) {
            total += member.isArray() ? member.size() : textTokens(member.asText().length());
        }
        return Math.clamp(total, 1, Integer.MAX_VALUE);
    }

    private static int chatPromptTokens(JsonNode messages) {
        long chars = 0;
        for (JsonNode message : messages) {
            JsonNode content = message.path("content");
            if (content.isTextual()) {
                chars += content.textValue().length();
            } else {
                for (JsonNode part : content) {
                    chars += part.path("text").asText("").length();
                }
            }
        }
        return textTokens(chars);
    }

    private static int textTokens(long chars) {
        return Math.clamp((chars + 3) / 4, 1, Integer.MAX_VALUE);
    }

    /** A malformed request; the message names the offending field and value. */
    static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRequest(String message) {
            super(message, null, false, false);
        }
    }
}
