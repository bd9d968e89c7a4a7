package dev.servebench.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.servebench.spec.YamlNode.Entry;
import dev.servebench.spec.YamlNode.ScalarType;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Streams one YAML document through Jackson's {@link YAMLParser} into {@link YamlNode}s, keeping each
 * token's location (Jackson reports 1-based lines and columns for YAML). Rejects what the streaming parser
 * lets through but a spec must not contain: duplicate keys (YAML forbids them, the parser keeps both),
 * aliases (the parser hands back the anchor's name as if it were a string) and further documents.
 */
final class YamlTree {

    private static final YAMLFactory FACTORY = YAMLFactory.builder().build();
    private static final Pattern INFINITY = Pattern.compile("[-+]?\\.(inf|Inf|INF)");
    private static final Pattern NOT_A_NUMBER = Pattern.compile("\\.(nan|NaN|NAN)");

    private final Path file;
    private final YAMLParser parser;

    private YamlTree(Path file, YAMLParser parser) {
        this.file = file;
        this.parser = parser;
    }

    /** The root node of {@code text}, or null when the document is empty. */
    static YamlNode parse(String text, Path file) {
        try (YAMLParser parser = FACTORY.createParser(text)) {
            YamlTree tree = new YamlTree(file, parser);
            if (parser.nextToken() == null) {
                return null;
            }
            YamlNode root = tree.node("");
            if (parser.nextToken() != null) {
                throw new SpecException(tree.here(), "a spec is one YAML document; found a second one ('---')");
            }
            return root;
        } catch (JsonProcessingException e) {
            throw syntaxError(file, e);
        } catch (IOException e) {
            // Reading from a String: only a parser bug gets here; report it at the start rather than lose it.
            throw new SpecException(new SourcePosition(file, 1, 1), "cannot parse YAML: " + e.getMessage());
        }
    }

    private YamlNode node(String path) throws IOException {
        SourcePosition position = here();
        if (parser.isCurrentAlias()) {
            throw new SpecException(position, name(path) + ": YAML aliases (*" + parser.getText()
                    + ") are not supported in specs; write the value out");
        }
        JsonToken token = parser.currentToken();
        return switch (token) {
            case START_OBJECT -> mapping(position, path);
            case START_ARRAY -> sequence(position, path);
            case VALUE_STRING -> scalar(ScalarType.STRING, null, Double.NaN, position, path);
            case VALUE_NUMBER_INT -> {
                BigInteger value = parser.getBigIntegerValue();
                yield scalar(ScalarType.INTEGER, value, value.doubleValue(), position, path);
            }
            case VALUE_NUMBER_FLOAT -> scalar(ScalarType.FLOAT, null, floatValue(), position, path);
            case VALUE_TRUE -> scalar(ScalarType.TRUE, null, Double.NaN, position, path);
            case VALUE_FALSE -> scalar(ScalarType.FALSE, null, Double.NaN, position, path);
            case VALUE_NULL -> scalar(ScalarType.NULL, null, Double.NaN, position, path);
            default -> throw new SpecException(position, name(path) + ": unexpected YAML token " + token);
        };
    }

    private YamlNode.Mapping mapping(SourcePosition position, String path) throws IOException {
        Map<String, Entry> entries = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            SourcePosition keyPosition = here();
            Entry earlier = entries.get(key);
            if (earlier != null) {
                throw new SpecException(keyPosition, "duplicate key '" + YamlNode.child(path, key)
                        + "' (first at line " + earlier.keyPosition().line() + ", column "
                        + earlier.keyPosition().column() + ")");
            }
            parser.nextToken();
            entries.put(key, new Entry(key, keyPosition, node(YamlNode.child(path, key))));
        }
        return new YamlNode.Mapping(entries, position, path);
    }

    private YamlNode.Sequence sequence(SourcePosition position, String path) throws IOException {
        List<YamlNode> items = new ArrayList<>();
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            items.add(node(path + "[" + items.size() + "]"));
        }
        return new YamlNode.Sequence(items, position, path);
    }

    private YamlNode.Scalar scalar(ScalarType type, BigInteger integer, double number, SourcePosition position,
            String path) throws IOException {
        return new YamlNode.Scalar(type, parser.getText(), integer, number, position, path);
    }

    /** YAML's special floats are typed FLOAT by the parser but Jackson cannot convert them. */
    private double floatValue() throws IOException {
        String text = parser.getText();
        if (INFINITY.matcher(text).matches()) {
            return text.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (NOT_A_NUMBER.matcher(text).matches()) {
            return Double.NaN;
        }
        return parser.getDoubleValue();
    }

    private SourcePosition here() {
        JsonLocation location = parser.currentTokenLocation();
        return new SourcePosition(file, Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
    }

    private static String name(String path) {
        return path.isEmpty() ? "the spec" : path;
    }

    /**
     * SnakeYAML's own problem mark is exact; the location Jackson attaches to a wrapped scanner error is
     * sometimes the last good token instead (an unterminated quote is reported where its key starts).
     */
    private static SpecException syntaxError(Path file, JsonProcessingException e) {
        if (e.getCause() instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked
                && marked.getProblemMark() != null) {
            String context = marked.getContext() == null ? "" : " (" + marked.getContext() + ")";
            return new SpecException(new SourcePosition(file, marked.getProblemMark().getLine() + 1,
                    marked.getProblemMark().getColumn() + 1), "invalid YAML: " + marked.getProblem() + context);
        }
        JsonLocation location = e.getLocation();
        SourcePosition position = location == null ? new SourcePosition(file, 1, 1)
                : new SourcePosition(file, Math.max(1, location.getLineNr()), Math.max(1, location.getColumnNr()));
        return new SpecException(position, "invalid YAML: " + e.getOriginalMessage());
    }
}
