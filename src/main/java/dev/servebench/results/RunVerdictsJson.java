package dev.servebench.results;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.results.AtomicFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code verdicts.json} of a perf-suite run: every judged test (validity condition, server/client token
 * cross-check, expectation, kernel expectation) with its outcome and why, in the order they were judged.
 * The HTML report's verdict table reads it. Rewritten atomically after each verdict, so an interrupted run
 * keeps what it judged.
 */
public final class RunVerdictsJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** {@code KERNEL}: a line of the spec's {@code kernels} list, judged on the kernel run before the suite. */
    public enum Kind { VALIDITY, CROSS_CHECK, EXPECTATION, KERNEL }

    /**
     * {@code NOT_JUDGED}: the point was valid but a value the check reads is absent, NaN or infinite (e.g.
     * request_goodput without SLOs), so there was nothing to compare; the JUnit test fails, it never passes.
     * {@code INVALID}: not judged, because the point could not be measured or failed its validity conditions;
     * the JUnit test is aborted.
     */
    public enum Outcome {
        PASS, FAIL, NOT_JUDGED, INVALID;

        /** The spelling in verdicts.json: pass, fail, not_judged or invalid. */
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Outcome parse(String text) {
            for (Outcome outcome : values()) {
                if (outcome.id().equals(text)) {
                    return outcome;
                }
            }
            throw new IllegalArgumentException("outcome \"" + text + "\"; expected pass, fail, not_judged or invalid");
        }
    }

    /**
     * @param point  the load point, empty for relative expectations across points
     * @param reason  the evaluated comparison, the failure message, or why it was not judged
     * @param summary one line: what was measured against what limit, or why it was not judged (the console
     *                summary prints it)
     */
    public record Entry(String name, Kind kind, Optional<String> point, Outcome outcome, String reason,
                        String summary) {
        public Entry {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(kind, "kind");
            Objects.requireNonNull(point, "point");
            Objects.requireNonNull(outcome, "outcome");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(summary, "summary");
            if (summary.contains("\n")) {
                throw new IllegalArgumentException("summary of " + name + " must be one line: " + summary);
            }
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

    /** What was recorded so far, in order. */
    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
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
            node.put("summary", entry.summary());
        }
        return root;
    }
}
