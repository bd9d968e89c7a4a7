package dev.servebench.server.embedded.http;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.server.embedded.EngineInfo;
import dev.servebench.server.embedded.GenerationRequest;
import dev.servebench.server.embedded.InferenceEngine;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Validates a completions or chat request body into a {@link GenerationCall}. Fields servebench and the
 * OpenAI clients send are read with their OpenAI defaults; unknown fields are ignored (as vLLM does), so
 * sampling options the engine lacks ({@code top_p}, {@code stop}, …) are accepted and have no effect.
 */
final class RequestParser {

    /** OpenAI's default for /v1/completions. */
    static final int DEFAULT_COMPLETION_MAX_TOKENS = 16;
    /** OpenAI's and vLLM's default temperature. */
    static final double DEFAULT_TEMPERATURE = 1.0;

    private final InferenceEngine engine;
    private final EngineInfo info;

    RequestParser(InferenceEngine engine) {
        this.engine = engine;
        this.info = engine.info();
    }

    GenerationCall parse(Api api, byte[] body) {
        ObjectNode root = parseObject(body);
        Fields.string(root, "model").ifPresent(this::checkModel);
        Fields.integer(root, "n", 1).ifPresent(n -> {
            if (n != 1) {
                throw ApiException.badRequest("n must be 1 (one choice per request), got " + n, "n");
            }
        });
        int[] prompt = switch (api) {
            case COMPLETIONS -> completionPrompt(root);
            case CHAT -> engine.tokenize(ChatTemplate.render(messages(root)));
        };
        if (prompt.length == 0) {
            throw ApiException.badRequest("prompt must not be empty (it has no tokens)", "prompt");
        }
        int maxTokens = switch (api) {
            case COMPLETIONS -> Fields.integer(root, "max_tokens", 1).orElse(DEFAULT_COMPLETION_MAX_TOKENS);
            // vLLM's chat default: whatever context the prompt leaves (the engine rejects a full context)
            case CHAT -> Fields.integer(root, "max_completion_tokens", 1)
                    .orElseGet(() -> Fields.integer(root, "max_tokens", 1)
                            .orElse(Math.max(1, info.contextPerSlot() - prompt.length - 1)));
        };
        int minTokens = Fields.integer(root, "min_tokens", 0).orElse(0);
        if (minTokens > maxTokens) {
            throw ApiException.badRequest("min_tokens (" + minTokens + ") must be <= max_tokens (" + maxTokens + ")",
                    "min_tokens");
        }
        boolean ignoreEos = Fields.bool(root, "ignore_eos", false);
        double temperature = Fields.number(root, "temperature", DEFAULT_TEMPERATURE, 0);
        Optional<Long> seed = Fields.longInteger(root, "seed");
        boolean stream = Fields.bool(root, "stream", false);
        boolean includeUsage = includeUsage(root);
        GenerationRequest request = new GenerationRequest(prompt, maxTokens, minTokens, ignoreEos, temperature, seed);
        return new GenerationCall(api, request, stream, includeUsage);
    }

    private static ObjectNode parseObject(byte[] body) {
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        } catch (JacksonException e) {
            throw ApiException.badRequest("request body is not valid JSON: " + e.getOriginalMessage(), null);
        } catch (IOException e) {
            throw ApiException.badRequest("request body is unreadable: " + e.getMessage(), null);
        }
        if (!(root instanceof ObjectNode object)) {
            throw ApiException.badRequest("request body must be a JSON object, got "
                    + (root == null || root.isMissingNode() ? "nothing" : Json.typeName(root)), null);
        }
        return object;
    }

    private void checkModel(String model) {
        if (!model.equals(info.modelName())) {
            throw new ApiException(404, "invalid_request_error", "The model `" + model + "` does not exist; this "
                    + "server serves `" + info.modelName() + "`.", "model", "model_not_found");
        }
    }

    /** One prompt: text, or token ids. A list of texts or of id lists is a batch, which is not supported. */
    private int[] completionPrompt(ObjectNode root) {
        JsonNode prompt = Fields.present(root, "prompt")
                .orElseThrow(() -> ApiException.badRequest("prompt is required", "prompt"));
        if (prompt.isTextual()) {
            return engine.tokenize(prompt.textValue());
        }
        if (!(prompt instanceof ArrayNode ids)) {
            throw Fields.wrongType("prompt", "a string or an array of token ids", prompt);
        }
        if (ids.isEmpty()) {
            throw ApiException.badRequest("prompt must not be empty", "prompt");
        }
        if (ids.get(0).isTextual() || ids.get(0).isArray()) {
            throw ApiException.badRequest("prompt is a batch of " + ids.size() + " prompts; this server takes one "
                    + "prompt per request (a string or an array of token ids)", "prompt");
        }
        int[] tokens = new int[ids.size()];
        for (int i = 0; i < tokens.length; i++) {
            JsonNode id = ids.get(i);
            if (!id.isIntegralNumber() || !id.canConvertToInt() || id.intValue() < 0 || id.intValue() >= info.vocabSize()) {
                throw ApiException.badRequest("prompt[" + i + "] must be a token id in [0, " + info.vocabSize() + "), got "
                        + Json.preview(id), "prompt");
            }
            tokens[i] = id.intValue();
        }
        return tokens;
    }

    private static List<ChatTemplate.Message> messages(ObjectNode root) {
        JsonNode messages = Fields.present(root, "messages")
                .orElseThrow(() -> ApiException.badRequest("messages is required", "messages"));
        if (!(messages instanceof ArrayNode list) || list.isEmpty()) {
            throw Fields.wrongType("messages", "a non-empty array of messages", messages);
        }
        List<ChatTemplate.Message> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String param = "messages[" + i + "]";
            if (!(list.get(i) instanceof ObjectNode message)) {
                throw Fields.wrongType(param, "an object", list.get(i));
            }
            JsonNode role = message.path("role");
            if (!role.isTextual() || role.textValue().isBlank()) {
                throw Fields.wrongType(param + ".role", "a non-empty string", role);
            }
            out.add(new ChatTemplate.Message(role.textValue(), content(message.path("content"), param + ".content")));
        }
        return out;
    }

    /** A string, null (an assistant turn with tool calls), or a list of {@code {"type":"text","text":…}} parts. */
    private static String content(JsonNode content, String param) {
        if (content.isTextual()) {
            return content.textValue();
        }
        if (content.isNull() || content.isMissingNode()) {
            return "";
        }
        if (!(content instanceof ArrayNode parts)) {
            throw Fields.wrongType(param, "a string or an array of text parts", content);
        }
        StringBuilder text = new StringBuilder();
        for (int j = 0; j < parts.size(); j++) {
            JsonNode part = parts.get(j);
            if (!"text".equals(part.path("type").textValue()) || !part.path("text").isTextual()) {
                throw ApiException.badRequest(param + "[" + j + "] must be {\"type\":\"text\",\"text\":\"…\"} (only "
                        + "text is supported), got " + Json.preview(part), param + "[" + j + "]");
            }
            text.append(part.path("text").textValue());
        }
        return text.toString();
    }

    private static boolean includeUsage(ObjectNode root) {
        Optional<ObjectNode> options = Fields.object(root, "stream_options");
        if (options.isEmpty()) {
            return false;
        }
        JsonNode include = options.get().path("include_usage");
        if (include.isMissingNode() || include.isNull()) {
            return false;
        }
        if (!include.isBoolean()) {
            throw Fields.wrongType("stream_options.include_usage", "a boolean", include);
        }
        return include.booleanValue();
    }
}
