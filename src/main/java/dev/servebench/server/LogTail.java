package dev.servebench.server;

import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * A server's log: every line goes to a file (when one is given) and the last {@code capacity} lines stay in
 * memory, so that a failure message can quote them without re-reading a file that may be gigabytes. Safe to
 * feed from one thread while others read.
 */
public final class LogTail implements Closeable {

    public static final int DEFAULT_CAPACITY = 2000;
    /** Longer lines (a progress bar redrawn with \r, a dumped tensor) are cut in memory, not in the file. */
    static final int MAX_LINE_CHARS = 4000;
    /** A line that never ends is recorded in pieces of this size. */
    static final int MAX_PENDING_CHARS = 64 * 1024;

    private final int capacity;
    private final Optional<Path> file;
    private final BufferedWriter writer;
    private final Deque<String> lines = new ArrayDeque<>();
    private final StringBuilder partial = new StringBuilder();
    private boolean pendingCarriageReturn;
    private long totalLines;
    private boolean closed;

    private LogTail(int capacity, Optional<Path> file, BufferedWriter writer) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity (" + capacity + ") must be >= 1");
        }
        this.capacity = capacity;
        this.file = file;
        this.writer = writer;
    }

    /** A tail kept in memory only. */
    public static LogTail inMemory(int capacity) {
        return new LogTail(capacity, Optional.empty(), null);
    }

    /** A tail that also writes every line to {@code file} (replaced if it exists; parent folders are created). */
    public static LogTail toFile(Path file, int capacity) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return new LogTail(capacity, Optional.of(file), Files.newBufferedWriter(file, StandardCharsets.UTF_8));
    }

    /**
     * Appends text: complete lines are recorded, a trailing fragment waits for its line end. A lone {@code \r}
     * (a progress bar redrawing itself) ends a line too, so that such output neither piles up in one endless
     * line nor hides the last state of the bar.
     */
    public synchronized void append(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (pendingCarriageReturn) {
                pendingCarriageReturn = false;
                if (c == '\n') {
                    continue;   // the \r\n pair ended one line
                }
            }
            if (c == '\n' || c == '\r') {
                keep(partial.toString());
                partial.setLength(0);
                pendingCarriageReturn = c == '\r';
            } else {
                partial.append(c);
                if (partial.length() >= MAX_PENDING_CHARS) {
                    keep(partial.toString());
                    partial.setLength(0);
                }
            }
        }
    }

    /** Appends one whole line (a line end is implied). */
    public synchronized void appendLine(CharSequence line) {
        append(line);
        append("\n");
    }

    private void keep(String line) {
        totalLines++;
        if (writer != null && !closed) {
            try {
                writer.write(line);
                writer.newLine();
                writer.flush();   // the file is read while the server runs
            } catch (IOException e) {
                // a full disk must not stop the server under test; the in-memory tail still has the line
            }
        }
        lines.addLast(line.length() <= MAX_LINE_CHARS ? line : line.substring(0, MAX_LINE_CHARS) + "…");
        if (lines.size() > capacity) {
            lines.removeFirst();
        }
    }

    /** The last {@code maxLines} lines (a pending fragment included), oldest first, joined by {@code \n}. */
    public synchronized String lastLines(int maxLines) {
        if (maxLines < 0) {
            throw new IllegalArgumentException("maxLines (" + maxLines + ") must be >= 0");
        }
        List<String> all = new java.util.ArrayList<>(lines);
        if (!partial.isEmpty()) {
            all.add(partial.toString());
        }
        return String.join("\n", all.subList(Math.max(0, all.size() - maxLines), all.size()));
    }

    /** Complete lines seen so far, including those no longer in memory. */
    public synchronized long totalLines() {
        return totalLines;
    }

    public Optional<Path> file() {
        return file;
    }

    /** Records a pending fragment and closes the file; later text is kept in memory only. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (!partial.isEmpty()) {
            keep(partial.toString());
            partial.setLength(0);
        }
        closed = true;
        if (writer != null) {
            try {
                writer.close();
            } catch (IOException e) {
                // nothing left to save
            }
        }
    }

    /** {@code "last N lines of FILE:\n…"} for an error message, or {@code "(no log output)"}. */
    public String excerptForError(int maxLines) {
        String text = lastLines(maxLines);
        if (text.isEmpty()) {
            return "(no log output" + file.map(f -> " in " + f).orElse("") + ")";
        }
        long shown = text.chars().filter(c -> c == '\n').count() + 1;
        return "last " + shown + " log lines" + file.map(f -> " of " + f).orElse("") + ":\n" + text;
    }
}
