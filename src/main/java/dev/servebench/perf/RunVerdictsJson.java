package dev.servebench.perf;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.report.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code verdicts.json} of a perf-suite run: every judged test (validity condition, server/client token
 * cross-check, expectation) with its outcome and why, in the order they were judged. The HTML report's
 * verdict table reads it. Rewritten atomically after each verdict, so an interrupted run keeps what it judged.
 */
public final class RunVerdictsJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public enum Kind { VALIDITY, CROSS_CHECK, EXPECTATION }

    /** {@code INVALID}: not judged, because the point could not be measured or failed its validity conditions. */
    public enum Outcome {
        PASS, FAIL, INVALID;

        /** The spelling in verdicts.json: pass, fail or invalid. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Outcome parse(String text) {
            for (Outcome outcome : values()) {
                if (outcome.id().equals(text)) {
                    return outcome;
                }
            }
            throw new IllegalArgumentException("outcome \"" + text + "\"; expected pass, fail or invalid");
        }
    }

    /**
     * @param point  the load point, empty for relative expectations across points
     * @param reason the evaluated comparison, the failure message, or why it was not judged
     */
    public record Entry(String name, Kind kind, Optional<String> point, Outcome outcome, String reason) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(point, "point");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(reason, "reason");
        }
    }

    private final Path file;
    private final String spec;
    private final List<Entry> entries = new ArrayList<>();

    public RunVerdictsJson(Path file, String spec) {
        this.file = Objects.requireNonNull(file, "file");
        this.spec = Objects.requireNonNull(spec, "spec");
    }

    public synchronized void add(Entry entry) throws IOException {
        entries.add(Objects.requireNonNull(entry, "entry"));
        AtomicFiles.write(file, JSON.writeValueAsString(toJson(spec, entries)));
    }

    static ObjectNode toJson(String spec, List<Entry> entries) {
        ObjectNode root = JSON.createObjectNode();
        root.put("spec", spec);
        ArrayNode verdicts = root.putArray("verdicts");
        for (Entry entry : entries) {
            ObjectNode node = verdicts.addObject();
            node.put("name", entry.name());
            node.put("kind", entry.kind().name().toLowerCase(Locale.ROOT));
            entry.point().ifPresentOrElse(p -> node.put("point", p), () -> node.putNull("point"));
            node.put("outcome", entry.outcome().id());
            node.put("reason", entry.reason());
        }
        return root;
    }
}
