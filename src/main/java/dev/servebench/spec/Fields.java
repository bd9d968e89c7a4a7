package dev.servebench.spec;

import java.util.List;
import java.util.Optional;

/**
 * The keys of one YAML mapping, checked against the keys its section allows as soon as it is opened, so a
 * misspelt key is an error (with the allowed list) instead of a silently applied default. Each unknown key
 * is recorded and the section's known keys are still read: their own mistakes are independent of it.
 */
final class Fields {

    private final YamlNode.Mapping mapping;
    private final String section;

    private Fields(YamlNode.Mapping mapping, String section) {
        this.mapping = mapping;
        this.section = section;
    }

    /**
     * @param section how messages name the mapping, e.g. {@code target (kind url)}
     * @param errors  where unknown keys are recorded
     * @throws SpecException {@code node} is not a mapping: none of the section can be read
     */
    static Fields of(YamlNode node, String section, List<String> allowedKeys, SpecErrors errors) {
        if (!(node instanceof YamlNode.Mapping mapping)) {
            throw Values.expected(node, "a mapping with keys " + String.join(", ", allowedKeys));
        }
        for (YamlNode.Entry entry : mapping.entries().values()) {
            if (!allowedKeys.contains(entry.key())) {
                errors.add(new SpecException(entry.keyPosition(), "unknown key '" + entry.key() + "' in " + section
                        + "; allowed keys: " + String.join(", ", allowedKeys)
                        + Similarity.didYouMean(Similarity.closest(entry.key(), allowedKeys, 2))));
            }
        }
        return new Fields(mapping, section);
    }

    YamlNode.Mapping mapping() {
        return mapping;
    }

    boolean has(String key) {
        return mapping.entries().containsKey(key);
    }

    Optional<YamlNode> optional(String key) {
        return Optional.ofNullable(mapping.entries().get(key)).map(YamlNode.Entry::value);
    }

    YamlNode required(String key) {
        return optional(key).orElseThrow(() -> new SpecException(mapping.position(),
                section + ": missing required key '" + key + "'"));
    }

    /** Where the key is written, for errors about the key as a whole. */
    SourcePosition keyPosition(String key) {
        YamlNode.Entry entry = mapping.entries().get(key);
        return entry == null ? mapping.position() : entry.keyPosition();
    }

    String string(String key) {
        return Values.string(required(key));
    }

    Optional<String> optionalString(String key) {
        return optional(key).map(Values::string);
    }

    int integer(String key, int min, int max, int fallback) {
        return optional(key).map(n -> Values.integer(n, min, max)).orElse(fallback);
    }

    double number(String key, double min, double max, double fallback) {
        return optional(key).map(n -> Values.number(n, min, max)).orElse(fallback);
    }

    boolean bool(String key, boolean fallback) {
        return optional(key).map(Values::bool).orElse(fallback);
    }
}
