package dev.servebench.results;

import dev.servebench.record.RecordJsonl;
import java.util.Locale;

/**
 * Every file servebench writes for another run (or a user's script) to read, with its format id
 * {@code servebench-<name>/<version>}: the one list of names and versions (docs/files.md prints it). A JSON
 * object file states its id in a top-level {@code "format"} field; a reader takes a file without one as
 * version 1 (files written before the field existed), and refuses another name or a newer version with a
 * message naming the file.
 */
public enum FileFormat {
    SUMMARY("summary", 1, "<label>.summary.json"),
    RECORDS(RecordJsonl.FORMAT_NAME, RecordJsonl.FORMAT_VERSION, "<label>.records.jsonl"),
    MEASUREMENTS("measurements", 1, "measurements.json"),
    VERDICTS("verdicts", 1, "verdicts.json"),
    ENVIRONMENT("environment", 1, "environment.json"),
    BASELINE("baseline", 1, "<spec>/<fingerprint>.json"),
    HISTORY("history", 1, "<spec>.jsonl"),
    COMPARE("compare", 1, "compare.json"),
    KERNEL_MEASUREMENTS("kernel-measurements", 1, "kernel-measurements.json"),
    KERNEL_FIGURES("kernel-figures", 1, "figures.json");

    private static final String PREFIX = "servebench-";

    private final String name;
    private final int version;
    private final String file;

    FileFormat(String name, int version, String file) {
        this.name = name;
        this.version = version;
        this.file = file;
    }

    /** The id this servebench writes, e.g. {@code servebench-summary/1}. */
    public String id() {
        return PREFIX + name + "/" + version;
    }

    /** The file's name (with placeholders), for docs and messages. */
    public String file() {
        return file;
    }

    public int version() {
        return version;
    }

    /**
     * The id a file states, checked: {@code null} (no {@code format} field) is version 1; this format at this
     * version or an older one is accepted and returned as it was written. The message is meant to follow the
     * file's path: {@code <file>: <message>}.
     *
     * @throws IllegalArgumentException another format, a newer version, or an id that is none
     */
    public String accept(String stated) {
        if (stated == null) {
            return PREFIX + name + "/1";
        }
        int slash = stated.lastIndexOf('/');
        String statedName = slash < 0 ? stated : stated.substring(0, slash);
        if (!statedName.equals(PREFIX + name)) {
            throw new IllegalArgumentException("format " + stated + " is not a " + file + " (expected " + id() + ")");
        }
        int statedVersion;
        try {
            statedVersion = Integer.parseInt(stated.substring(slash + 1));
        } catch (NumberFormatException e) {
            statedVersion = -1;
        }
        if (statedVersion < 1) {
            throw new IllegalArgumentException("format " + stated + " has no version number (expected " + id() + ")");
        }
        if (statedVersion > version) {
            throw new IllegalArgumentException("format " + stated + " is newer than this servebench (reads /"
                    + version + ")");
        }
        return stated;
    }

    /** For messages: {@code summary} as the id names it. */
    @Override
    public String toString() {
        return name.toLowerCase(Locale.ROOT);
    }
}
