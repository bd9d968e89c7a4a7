package dev.servebench.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a unified GC log ({@code -Xlog:gc:file=<path>:uptime}) says about the heap: the heap before and after
 * each evacuating pause (young, mixed, full; G1's remark and cleanup pauses move nothing and are skipped), in
 * MiB as G1 prints them (rounded). The heap after a young pause still holds old-generation garbage not yet
 * reclaimed by a mixed or full collection, so "after GC" is an upper bound of the live set.
 *
 * @param pauses         young, mixed and full pauses
 * @param fullPauses     of those, full collections ({@code Pause Full})
 * @param peakBeforeMib  largest heap used seen when a pause began; -1 without pauses
 * @param maxAfterMib    largest heap used right after a pause; -1 without pauses
 * @param lastAfterMib   heap used after the last pause; -1 without pauses
 * @param afterSeries    up to {@value #SERIES_POINTS} (uptime s, heap after MiB) pairs spread over the run
 */
record GcLog(int pauses, int fullPauses, long peakBeforeMib, long maxAfterMib, long lastAfterMib,
             List<double[]> afterSeries) {

    static final int SERIES_POINTS = 20;

    private static final Pattern PAUSE = Pattern.compile(
            "^\\[([0-9.]+)s].*GC\\(\\d+\\) (Pause \\w+).*? (\\d+)([KMG])->(\\d+)([KMG])\\((\\d+)([KMG])\\)");

    static GcLog read(Path file) throws IOException {
        if (!Files.exists(file)) {
            return new GcLog(0, 0, -1, -1, -1, List.of());
        }
        List<double[]> after = new ArrayList<>();
        int full = 0;
        long peakBefore = -1;
        long maxAfter = -1;
        for (String line : Files.readAllLines(file)) {
            Matcher m = PAUSE.matcher(line);
            if (!m.find() || !(m.group(2).equals("Pause Young") || m.group(2).equals("Pause Full"))) {
                continue;
            }
            long before = mebibytes(m.group(3), m.group(4));
            long afterMib = mebibytes(m.group(5), m.group(6));
            full += m.group(2).equals("Pause Full") ? 1 : 0;
            peakBefore = Math.max(peakBefore, before);
            maxAfter = Math.max(maxAfter, afterMib);
            after.add(new double[] {Double.parseDouble(m.group(1)), afterMib});
        }
        long last = after.isEmpty() ? -1 : (long) after.getLast()[1];
        return new GcLog(after.size(), full, peakBefore, maxAfter, last, spread(after));
    }

    private static long mebibytes(String value, String unit) {
        long n = Long.parseLong(value);
        return switch (unit) {
            case "K" -> n / 1024;
            case "G" -> n * 1024;
            default -> n;
        };
    }

    /** At most SERIES_POINTS entries, evenly picked, the last pause always included. */
    private static List<double[]> spread(List<double[]> all) {
        if (all.size() <= SERIES_POINTS) {
            return List.copyOf(all);
        }
        List<double[]> picked = new ArrayList<>();
        for (int i = 1; i <= SERIES_POINTS; i++) {
            picked.add(all.get((int) ((long) i * all.size() / SERIES_POINTS) - 1));
        }
        return picked;
    }
}
