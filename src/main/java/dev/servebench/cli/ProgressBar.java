package dev.servebench.cli;

import dev.servebench.load.LoadProgress;
import java.io.PrintWriter;

/**
 * A one-line progress bar on stderr, redrawn at most ten times a second so that drawing never competes
 * with the network threads.
 */
final class ProgressBar implements LoadProgress {

    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintWriter out;
    /** On a terminal the bar redraws in place; elsewhere (CI logs) it prints a line every 10 s. */
    private final boolean terminal;
    private final long redrawNanos;
    private final String label;
    private final long startNanos = System.nanoTime();
    private volatile long lastDrawNanos;

    ProgressBar(PrintWriter out, String label, boolean terminal) {
        this.out = out;
        this.label = label;
        this.terminal = terminal;
        this.redrawNanos = terminal ? REDRAW_NANOS : 100 * REDRAW_NANOS;
    }

    static boolean stderrIsTerminal() {
        java.io.Console console = System.console();
        return console != null && console.isTerminal();
    }

    @Override
    public void update(int finished, int failed, int total) {
        long now = System.nanoTime();
        if (finished < total && now - lastDrawNanos < redrawNanos) {
            return;
        }
        synchronized (this) {
            lastDrawNanos = now;
            int filled = total == 0 ? WIDTH : (int) ((long) finished * WIDTH / total);
            String bar = "=".repeat(filled) + (filled < WIDTH ? ">" + " ".repeat(WIDTH - filled - 1) : "");
            out.printf(terminal ? "\r%s" : "%s [%s] %d/%d requests, %d failed, %.1f s", label, bar, finished, total, failed,
                    (now - startNanos) / 1e9);
            if (finished >= total || !terminal) {
                out.println();
            }
            out.flush();
        }
    }
}
