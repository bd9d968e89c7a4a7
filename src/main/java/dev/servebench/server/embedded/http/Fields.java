package dev.servebench.server.embedded.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Typed reads of optional request fields. JSON {@code null} counts as absent (as in the OpenAI SDKs and
 * vLLM's pydantic models); a value of the wrong type is a 400 naming the field and showing the value, never a
 * silent default.
 */
final class Fields {

    private Fields() {}

    static Optional<JsonNode> present(ObjectNode body, String name) {
        JsonNode value = body.get(name);
        return value == null || value.isNull() ? Optional.empty() : Optional.of(value);
    }

    static OptionalInt integer(ObjectNode body, String name, int min) {
        Optional<JsonNode> value = present(body, name);
        if (value.isEmpty()) {
            return OptionalInt.empty();
        }
        JsonNode v = value.get();
        if (!v.isIntegralNumber()) {
            throw wrongType(name, "an integer", v);
        }
        if (!v.canConvertToInt() || v.intValue() < min) {
            throw ApiException.badRequest(name + " must be an integer >= " + min + " and <= " + Integer.MAX_VALUE
                    + ", got " + Json.preview(v), name);
        }
        return OptionalInt.of(v.intValue());
    }

    static Optional<Long> longInteger(ObjectNode body, String name) {
        Optional<JsonNode> value = present(body, name);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        JsonNode v = value.get();
        if (!v.isIntegralNumber() || !v.canConvertToLong()) {
            throw wrongType(name, "a 64-bit integer", v);
        }
        return Optional.of(v.longValue());
    }

    static boolean bool(ObjectNode body, String name, boolean absent) {
        Optional<JsonNode> value = present(body, name);
        if (value.isEmpty()) {
            return absent;
        }
        if (!value.get().isBoolean()) {
            throw wrongType(name, "a boolean", value.get());
        }
        return value.get().booleanValue();
    }

    static double number(ObjectNode body, String name, double absent, double min) {
        Optional<JsonNode> value = present(body, name);
        if (value.isEmpty()) {
            return absent;
        }
        JsonNode v = value.get();
        if (!v.isNumber()) {
            throw wrongType(name, "a number", v);
        }
        double d = v.doubleValue();
        if (!(d >= min) || Double.isInfinite(d)) {
            throw ApiException.badRequest(name + " must be a finite number >= " + min + ", got " + Json.preview(v), name);
        }
        return d;
    }

    static Optional<String> string(ObjectNode body, String name) {
        Optional<JsonNode> value = present(body, name);
        if (value.isPresent() && !value.get().isTextual()) {
            throw wrongType(name, "a string", value.get());
        }
        return value.map(JsonNode::textValue);
    }

    static Optional<ObjectNode> object(ObjectNode body, String name) {
        Optional<JsonNode> value = present(body, name);
        if (value.isPresent() && !(value.get() instanceof ObjectNode)) {
            throw wrongType(name, "an object", value.get());
        }
        return value.map(ObjectNode.class::cast);
    }

    static ApiException wrongType(String name, String expected, JsonNode got) {
        return ApiException.badRequest(name + " must be " + expected + ", got " + Json.typeName(got) + ": "
                + Json.preview(got), name);
    }
}
