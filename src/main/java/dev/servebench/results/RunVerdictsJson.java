package dev.servebench.results;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
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

    /** {@code KERNEL}: a line of the spec's {@code kernels} list, judged on the kernel run before the suite. */
    public enum Kind {
        VALIDITY, CROSS_CHECK, EXPECTATION, KERNEL;

        /** The spelling in verdicts.json: validity, cross_check, expectation or kernel. */
        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Kind parse(String text) {
            for (Kind kind : values()) {
                if (kind.id().equals(text)) {
                    return kind;
                }
            }
            throw new IllegalArgumentException("kind \"" + text + "\"; expected validity, cross_check, expectation"
                    + " or kernel");
        }
    }

    /**
     * {@code NOT_JUDGED}: the point was valid but a value the check reads is absent, NaN or infinite (e.g.
     * request_goodput without SLOs), so there was nothing to compare; the JUnit test fails, it never passes.
     * {@code INVALID}: not judged, because the point could not be measured or failed its validity conditions;
     * the JUnit test is aborted. {@code INCONCLUSIVE}: a kernel line whose measurement's interval still straddles
     * its limit after the re-measuring the budget allowed; the JUnit test is aborted with the interval, neither
     * passed nor failed.
     */
    public enum Outcome {
        PASS, FAIL, INCONCLUSIVE, NOT_JUDGED, INVALID;

        /** The spelling in verdicts.json: pass, fail, inconclusive, not_judged or invalid. */
        @JsonValue
        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        @JsonCreator
        public static Outcome parse(String text) {
            for (Outcome outcome : values()) {
                if (outcome.id().equals(text)) {
                    return outcome;
                }
            }
            throw new IllegalArgumentException("outcome \"" + text + "\"; expected pass, fail, inconclusive, not_judged or"
                    + " invalid");
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

        /** As verdicts.json states it; files written before {@code summary} existed read with an empty one. */
        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static Entry of(Stored stored) {
            return new Entry(stored.name(), stored.kind(), Optional.ofNullable(stored.point()), stored.outcome(),
                    stored.reason() == null ? "" : stored.reason(), stored.summary() == null ? "" : stored.summary());
        }

        @JsonValue
        Stored stored() {
            return new Stored(name, kind, point.orElse(null), outcome, reason, summary);
        }
    }

    /** An entry as the file holds it: the point null for relative expectations across points. */
    @JsonPropertyOrder({"name", "kind", "point", "outcome", "reason", "summary"})
    @JsonInclude(JsonInclude.Include.ALWAYS)
    record Stored(String name, Kind kind, String point, Outcome outcome, String reason, String summary) {
    }

    /** The file: the spec's name and every verdict, in the order they were judged. */
    @JsonPropertyOrder({"format", "spec", "verdicts"})
    public record Document(String format, String spec, List<Entry> verdicts) {
        public static final String FILE = "verdicts.json";

        public Document {
            format = FileFormat.VERDICTS.accept(format);
            Objects.requireNonNull(spec, "missing \"spec\"");
            verdicts = List.copyOf(Objects.requireNonNull(verdicts, "missing \"verdicts\""));
        }

        public static Document read(Path file) throws IOException {
            return FormatJson.read(file, FileFormat.VERDICTS, Document.class);
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
        FormatJson.write(file, toJson(spec, entries));
    }

    /** What was recorded so far, in order. */
    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    static Document toJson(String spec, List<Entry> entries) {
        return new Document(FileFormat.VERDICTS.id(), spec, entries);
    }
}
