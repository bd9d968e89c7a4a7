package dev.servebench.server.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time and memory of this JVM from Linux /proc, for measurements (not assertions on a shared machine).
 *
 * @param userSeconds   user-mode CPU time of all threads, native ones included
 * @param systemSeconds kernel-mode CPU time (futex spinning shows up here)
 * @param rssMb         resident set size now
 * @param hwmMb         peak resident set size
 */
record ProcessStats(double userSeconds, double systemSeconds, double rssMb, double hwmMb) {

    /** USER_HZ: the unit of /proc/self/stat's utime and stime; 100 on every mainstream Linux. */
    private static final double TICKS_PER_SECOND = 100.0;

    static ProcessStats sample() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // Fields after the parenthesised command name; utime and stime are fields 14 and 15 overall.
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            double user = Long.parseLong(fields[11]) / TICKS_PER_SECOND;
            double system = Long.parseLong(fields[12]) / TICKS_PER_SECOND;
            double rss = 0;
            double hwm = 0;
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    rss = kilobytes(line) / 1024.0;
                } else if (line.startsWith("VmHWM:")) {
                    hwm = kilobytes(line) / 1024.0;
                }
            }
            return new ProcessStats(user, system, rss, hwm);
        } catch (IOException | RuntimeException e) {
            return new ProcessStats(Double.NaN, Double.NaN, Double.NaN, Double.NaN);
        }
    }

    private static long kilobytes(String line) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
    }

    ProcessStats minus(ProcessStats before) {
        return new ProcessStats(userSeconds - before.userSeconds, systemSeconds - before.systemSeconds, rssMb, hwmMb);
    }
}
