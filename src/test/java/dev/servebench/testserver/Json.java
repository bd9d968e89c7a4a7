package dev.servebench.testserver;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** The one shared mapper plus the few JSON fragments rendered outside the per-token hot path. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {
    }

    /** A JSON string literal, quotes included. */
    static String quote(String s) {
        try {
            return MAPPER.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code {"error":{"message":..,"type":..,"param":null,"code":..}}}, the shape OpenAI and vLLM share. */
    static String errorBody(String message, String type, int code) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.putNull("param");
        error.put("code", code);
        return root.toString();
    }

    /** The in-stream error event vLLM sends when generation fails mid-stream. */
    static String errorEvent(String message, String type, int code) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode error = root.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.put("code", code);
        return root.toString();
    }
}
