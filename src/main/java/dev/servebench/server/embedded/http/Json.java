package dev.servebench.server.embedded.http;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON helpers: responses are assembled as strings (fixed shapes, one per token), requests parsed as trees. */
final class Json {

    static final ObjectMapper MAPPER = new ObjectMapper();

    private Json() {}

    /** {@code text} as a JSON string literal, quotes included. */
    static String quote(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 2).append('"');
        JsonStringEncoder.getInstance().quoteAsString(text, sb);
        return sb.append('"').toString();
    }

    /** How a value reads in an error message: its JSON text, shortened. */
    static String preview(JsonNode value) {
        String text = value.toString();
        return text.length() > 60 ? text.substring(0, 57) + "..." : text;
    }

    /** The JSON type name of {@code value}, for "must be an integer, got a string" messages. */
    static String typeName(JsonNode value) {
        return switch (value.getNodeType()) {
            case ARRAY -> "an array";
            case BOOLEAN -> "a boolean";
            case NULL, MISSING -> "null";
            case NUMBER -> value.isIntegralNumber() ? "an integer" : "a number";
            case OBJECT, POJO -> "an object";
            case STRING -> "a string";
            case BINARY -> "binary";
        };
    }
}
