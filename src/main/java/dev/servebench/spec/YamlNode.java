package dev.servebench.spec;

import java.math.BigInteger;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A YAML value with the place it starts in the file and its path from the root (e.g.
 * {@code sweep.concurrency[2]}), so every later check can say where and what. Built by {@link YamlTree};
 * Jackson's own tree drops locations, which is why the spec reader keeps this one.
 */
sealed interface YamlNode permits YamlNode.Mapping, YamlNode.Sequence, YamlNode.Scalar {

    SourcePosition position();

    /** Dotted path from the root; empty for the root itself. */
    String path();

    /** What was found, for "expected X, found Y" messages. */
    String describe();

    /** A key and its value; the key's own position is where an unknown or duplicate key is reported. */
    record Entry(String key, SourcePosition keyPosition, YamlNode value) {
    }

    /** Keys in file order. */
    record Mapping(Map<String, Entry> entries, SourcePosition position, String path) implements YamlNode {
        public Mapping {
            entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    record Sequence(List<YamlNode> items, SourcePosition position, String path) implements YamlNode {
        public Sequence {
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a list";
        }
    }

    /** How YAML typed a scalar; quoted scalars are always strings. */
    enum ScalarType { STRING, INTEGER, FLOAT, TRUE, FALSE, NULL }

    /**
     * @param text    the scalar's value as text (unquoted, escapes resolved)
     * @param integer the value of an INTEGER scalar, else null
     * @param number  the value of an INTEGER or FLOAT scalar ({@code .inf} and {@code .nan} included), else NaN
     */
    record Scalar(ScalarType type, String text, BigInteger integer, double number, SourcePosition position,
                  String path) implements YamlNode {

        @Override
        public String describe() {
            return switch (type) {
                case STRING -> "string '" + abbreviated(text) + "'";
                case INTEGER -> "integer " + text;
                case FLOAT -> "number " + text;
                case TRUE, FALSE -> "boolean " + text;
                case NULL -> "no value (null)";
            };
        }

        private static String abbreviated(String text) {
            String oneLine = text.replace("\n", "\\n");
            return oneLine.length() <= 60 ? oneLine : oneLine.substring(0, 57) + "...";
        }
    }

    /** {@code parent.key}, or {@code key} at the root. */
    static String child(String parentPath, String key) {
        return parentPath.isEmpty() ? key : parentPath + "." + key;
    }

    /** How a message names the node: its path, or "the spec" for the root. */
    static String name(YamlNode node) {
        return node.path().isEmpty() ? "the spec" : node.path();
    }
}
