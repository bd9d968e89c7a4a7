package dev.servebench.cli;

import dev.servebench.load.LoadProgress;
import java.io.PrintStream;

/**
 * A one-line progress bar on stderr, redrawn at most ten times a second so that drawing never competes
 * with the network threads. Silent when stderr is not a terminal unless forced.
 */
final class ProgressBar implements LoadProgress {

    private static final int WIDTH = 30;
    private static final long REDRAW_NANOS = 100_000_000L;

    private final PrintStream out;
    private final String label;
    private final long startNanos = System.nanoTime();
    private volatile long lastDrawNanos;

    ProgressBar(PrintStream out, String label) {
        this.out = out;
        this.label = label;
    }

    @Override
    public void update(int finished, int failed, int total) {
        long now = System.nanoTime();
        if (finished < total && now - lastDrawNanos < REDRAW_NANOS) {
            return;
        }
        synchronized (this) {
            lastDrawNanos = now;
            int filled = total == 0 ? WIDTH : (int) ((long) finished * WIDTH / total);
            String bar = "=".repeat(filled) + (filled < WIDTH ? ">" + " ".repeat(WIDTH - filled - 1) : "");
            out.printf("\r%s [%s] %d/%d requests, %d failed, %.1f s", label, bar, finished, total, failed,
                    (now - startNanos) / 1e9);
            if (finished >= total) {
                out.println();
            }
            out.flush();
        }
    }
}
