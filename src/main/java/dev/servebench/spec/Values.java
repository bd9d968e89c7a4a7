package dev.servebench.spec;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.spec.YamlNode.Scalar;
import dev.servebench.spec.YamlNode.ScalarType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Typed reads of YAML values. Strict on purpose: an integer field takes a YAML integer (not "256" and not
 * 256.0), so a spec means the same thing to every reader; every refusal says what was expected and found.
 */
final class Values {

    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
    private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private Values() {
    }

    static SpecException error(YamlNode node, String problem) {
        return new SpecException(node.position(), YamlNode.name(node) + ": " + problem);
    }

    static SpecException expected(YamlNode node, String expectation) {
        return error(node, "expected " + expectation + ", found " + node.describe());
    }

    /** A non-blank string. */
    static String string(YamlNode node) {
        if (!(node instanceof Scalar scalar) || scalar.type() != ScalarType.STRING) {
            throw expected(node, "a string" + (node instanceof Scalar s && s.type() != ScalarType.NULL
                    ? " (quote it)" : ""));
        }
        if (scalar.text().isBlank()) {
            throw expected(node, "a non-empty string");
        }
        return scalar.text();
    }

    /** An integer in {@code [min, max]}. */
    static int integer(YamlNode node, int min, int max) {
        String range = max == Integer.MAX_VALUE ? "an integer >= " + min : "an integer in [" + min + ", " + max + "]";
        if (!(node instanceof Scalar scalar) || scalar.type() != ScalarType.INTEGER) {
            throw expected(node, range);
        }
        BigInteger value = scalar.integer();
        if (value.compareTo(BigInteger.valueOf(min)) < 0 || value.compareTo(BigInteger.valueOf(max)) > 0) {
            throw expected(node, range);
        }
        return value.intValueExact();
    }

    /** Any integer that fits a long (seeds). */
    static long longInteger(YamlNode node) {
        if (!(node instanceof Scalar scalar) || scalar.type() != ScalarType.INTEGER || scalar.integer().bitLength() > 63) {
            throw expected(node, "an integer (64-bit)");
        }
        return scalar.integer().longValue();
    }

    /** A finite number (integer or decimal) in {@code [min, max]}. */
    static double number(YamlNode node, double min, double max) {
        String range = max == Double.MAX_VALUE ? "a number >= " + plain(min)
                : "a number in [" + plain(min) + ", " + plain(max) + "]";
        if (!(node instanceof Scalar scalar)
                || (scalar.type() != ScalarType.INTEGER && scalar.type() != ScalarType.FLOAT)
                || !Double.isFinite(scalar.number()) || scalar.number() < min || scalar.number() > max) {
            throw expected(node, range);
        }
        return scalar.number();
    }

    /** A finite number > 0. */
    static double positiveNumber(YamlNode node) {
        if (!(node instanceof Scalar scalar)
                || (scalar.type() != ScalarType.INTEGER && scalar.type() != ScalarType.FLOAT)
                || !Double.isFinite(scalar.number()) || !(scalar.number() > 0)) {
            throw expected(node, "a number > 0");
        }
        return scalar.number();
    }

    static boolean bool(YamlNode node) {
        if (!(node instanceof Scalar scalar) || !(scalar.type() == ScalarType.TRUE || scalar.type() == ScalarType.FALSE)) {
            throw expected(node, "true or false");
        }
        return scalar.type() == ScalarType.TRUE;
    }

    /** {@code 90s}, {@code 15m}, {@code 1h}, {@code 500ms}; positive. */
    static Duration duration(YamlNode node) {
        String form = "a duration such as 500ms, 90s, 15m or 1h";
        if (!(node instanceof Scalar scalar) || scalar.type() != ScalarType.STRING) {
            throw expected(node, form);
        }
        Matcher m = DURATION.matcher(scalar.text().trim());
        if (!m.matches()) {
            throw expected(node, form);
        }
        BigDecimal amount = new BigDecimal(m.group(1));
        BigDecimal millis = amount.multiply(BigDecimal.valueOf(switch (m.group(2)) {
            case "ms" -> 1L;
            case "s" -> 1_000L;
            case "m" -> 60_000L;
            default -> 3_600_000L;
        }));
        if (millis.signum() <= 0) {
            throw expected(node, "a positive duration");
        }
        return Duration.ofNanos(millis.multiply(BigDecimal.valueOf(1_000_000L)).longValue());
    }

    /**
     * A file path; a relative one is resolved against the spec file's directory (as the spec's author sees
     * it), kept relative when the spec was given without a directory. {@code ~} is refused rather than
     * expanded: expansion would make the spec mean different files for different users.
     */
    static Path path(YamlNode node, Path specDirectory) {
        String text = string(node);
        if (text.startsWith("~")) {
            throw error(node, "'~' is not expanded; write an absolute path or one relative to the spec file, found '"
                    + text + "'");
        }
        try {
            Path path = Path.of(text);
            return specDirectory == null || path.isAbsolute() ? path : specDirectory.resolve(path).normalize();
        } catch (InvalidPathException e) {
            throw error(node, "not a valid path: " + e.getMessage());
        }
    }

    /** A list of scalars (program arguments: numbers keep their written text); no shell splitting. */
    static List<String> arguments(YamlNode node, boolean nonEmpty) {
        if (!(node instanceof YamlNode.Sequence sequence)) {
            throw expected(node, "a list of arguments such as [python3, -m, sglang.launch_server] (no shell splitting)");
        }
        if (nonEmpty && sequence.items().isEmpty()) {
            throw expected(node, "at least one argument");
        }
        List<String> arguments = new ArrayList<>();
        for (YamlNode item : sequence.items()) {
            arguments.add(scalarText(item, "an argument (string or number)"));
        }
        return arguments;
    }

    /** Environment variables: names like shell identifiers, scalar values taken as written. */
    static Map<String, String> environment(YamlNode node) {
        if (!(node instanceof YamlNode.Mapping mapping)) {
            throw expected(node, "a mapping of environment variables (NAME: value)");
        }
        Map<String, String> environment = new LinkedHashMap<>();
        for (YamlNode.Entry entry : mapping.entries().values()) {
            if (!ENV_NAME.matcher(entry.key()).matches()) {
                throw new SpecException(entry.keyPosition(), YamlNode.name(entry.value())
                        + ": expected an environment variable name ([A-Za-z_][A-Za-z0-9_]*), found '" + entry.key() + "'");
            }
            environment.put(entry.key(), scalarText(entry.value(), "a value (string, number or boolean)"));
        }
        return environment;
    }

    private static String scalarText(YamlNode node, String expectation) {
        if (!(node instanceof Scalar scalar) || scalar.type() == ScalarType.NULL) {
            throw expected(node, expectation);
        }
        return scalar.text();
    }

    /** {@code 600}, {@code 2.5}, {@code 0.001}: no trailing zeros, no exponent. */
    static String plain(double value) {
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /**
     * A mapping as a JSON object (a request body fragment), typed as JSON would type it: integers that fit an
     * int or long as such, decimals as doubles, {@code null} as JSON null.
     */
    static ObjectNode jsonObject(YamlNode node) {
        if (!(node instanceof YamlNode.Mapping)) {
            throw expected(node, "a mapping (a JSON object merged into every request body)");
        }
        return (ObjectNode) json(node);
    }

    private static JsonNode json(YamlNode node) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        return switch (node) {
            case YamlNode.Mapping mapping -> {
                ObjectNode object = json.objectNode();
                mapping.entries().values().forEach(entry -> object.set(entry.key(), json(entry.value())));
                yield object;
            }
            case YamlNode.Sequence sequence -> {
                ArrayNode array = json.arrayNode();
                sequence.items().forEach(item -> array.add(json(item)));
                yield array;
            }
            case Scalar scalar -> switch (scalar.type()) {
                case STRING -> json.textNode(scalar.text());
                case INTEGER -> scalar.integer().bitLength() < 32 ? json.numberNode(scalar.integer().intValue())
                        : scalar.integer().bitLength() < 64 ? json.numberNode(scalar.integer().longValue())
                        : json.numberNode(scalar.integer());
                case FLOAT -> {
                    if (!Double.isFinite(scalar.number())) {
                        throw expected(node, "a finite number (JSON has no infinity or NaN)");
                    }
                    yield json.numberNode(scalar.number());
                }
                case TRUE -> json.booleanNode(true);
                case FALSE -> json.booleanNode(false);
                case NULL -> json.nullNode();
            };
        };
    }
}
