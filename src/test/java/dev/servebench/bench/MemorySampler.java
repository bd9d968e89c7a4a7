package dev.servebench.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * Samples a running JVM's memory every {@code intervalMillis}: resident set size ({@code VmRSS}, and the
 * kernel's own peak {@code VmHWM}) from {@code /proc/<pid>/status}, and Java heap used and committed from one
 * long-lived {@code jstat -gc <pid> <interval>} (it reads the target's perf-data file; no safepoint, no attach).
 * Heap used = S0U + S1U + EU + OU, committed = S0C + S1C + EC + OC (G1: survivor, eden and old regions).
 */
final class MemorySampler {

    /** Peaks over the samples taken; -1 where nothing was sampled. */
    record Peaks(long samples, long rssPeakKb, long hwmKb, long heapSamples, long heapUsedPeakKb,
                 long heapCommittedPeakKb, long openFilesLimit, long rssAnonPeakKb, long rssFilePeakKb) {}

    private final long pid;
    private final long intervalMillis;
    private final Path jstat;
    private final Thread procThread;
    private final Thread jstatThread;
    private volatile boolean stopped;
    private volatile Process jstatProcess;
    private long samples;
    private long rssPeakKb = -1;
    private long hwmKb = -1;
    private long heapSamples;
    private long heapUsedPeakKb = -1;
    private long heapCommittedPeakKb = -1;
    private long openFilesLimit = -1;
    /** Anonymous memory (heap, native) apart from mapped files (the jar, a memory-mapped spill file). */
    private long rssAnonPeakKb = -1;
    private long rssFilePeakKb = -1;

    private MemorySampler(long pid, long intervalMillis, Path jstat) {
        this.pid = pid;
        this.intervalMillis = intervalMillis;
        this.jstat = jstat;
        this.procThread = Thread.ofPlatform().daemon().name("sample-proc-" + pid).unstarted(this::sampleProc);
        this.jstatThread = Thread.ofPlatform().daemon().name("sample-jstat-" + pid).unstarted(this::sampleHeap);
    }

    static MemorySampler start(long pid, long intervalMillis) {
        MemorySampler sampler = new MemorySampler(pid, intervalMillis, ScriptedServerProcess.javaTool("jstat"));
        sampler.procThread.start();
        sampler.jstatThread.start();
        return sampler;
    }

    /** Stops sampling (call after the process exited, so the last samples are in) and returns the peaks. */
    Peaks stop() throws InterruptedException {
        stopped = true;
        Process p = jstatProcess;
        if (p != null) {
            p.destroy();
        }
        procThread.join(5_000);
        jstatThread.join(5_000);
        synchronized (this) {
            return new Peaks(samples, rssPeakKb, hwmKb, heapSamples, heapUsedPeakKb, heapCommittedPeakKb,
                    openFilesLimit, rssAnonPeakKb, rssFilePeakKb);
        }
    }

    private void sampleProc() {
        Path status = Path.of("/proc/" + pid + "/status");
        while (!stopped) {
            try {
                List<String> lines = Files.readAllLines(status);
                long rss = kilobytes(lines, "VmRSS:");
                long hwm = kilobytes(lines, "VmHWM:");
                long anon = kilobytes(lines, "RssAnon:");
                long file = kilobytes(lines, "RssFile:");
                long files = openFilesLimit(pid); // re-read: the JVM raises its soft limit while starting
                synchronized (this) {
                    openFilesLimit = files < 0 ? openFilesLimit : files;
                    samples++;
                    rssPeakKb = Math.max(rssPeakKb, rss);
                    hwmKb = Math.max(hwmKb, hwm);
                    rssAnonPeakKb = Math.max(rssAnonPeakKb, anon);
                    rssFilePeakKb = Math.max(rssFilePeakKb, file);
                }
                Thread.sleep(intervalMillis);
            } catch (IOException | InterruptedException e) {
                return; // the process is gone, or sampling stops
            }
        }
    }

    /** Runs jstat until it reports; it fails while the target has not yet created its perf-data file. */
    private void sampleHeap() {
        while (!stopped && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            try {
                if (readJstat() > 0) {
                    return;
                }
                Thread.sleep(intervalMillis);
            } catch (IOException e) {
                System.err.println("cannot run " + jstat + " (no heap samples): " + e.getMessage());
                return;
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private long readJstat() throws IOException, InterruptedException {
        Process p = new ProcessBuilder(jstat.toString(), "-J-Xmx64m", "-J-XX:+UseSerialGC", "-J-Duser.language=en",
                "-J-Duser.country=US", "-gc", Long.toString(pid), Long.toString(intervalMillis))
                .redirectErrorStream(true).start();
        jstatProcess = p;
        long rows = 0;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            List<String> header = null;
            String line;
            while ((line = out.readLine()) != null) {
                List<String> fields = Arrays.asList(line.trim().split("\\s+"));
                if (fields.contains("EU")) {
                    header = fields;
                } else if (header != null && fields.size() == header.size()) {
                    OptionalLong used = sum(header, fields, "S0U", "S1U", "EU", "OU");
                    OptionalLong committed = sum(header, fields, "S0C", "S1C", "EC", "OC");
                    if (used.isPresent() && committed.isPresent()) {
                        rows++;
                        synchronized (this) {
                            heapSamples++;
                            heapUsedPeakKb = Math.max(heapUsedPeakKb, used.getAsLong());
                            heapCommittedPeakKb = Math.max(heapCommittedPeakKb, committed.getAsLong());
                        }
                    }
                }
            }
        } finally {
            p.destroy();
            p.waitFor();
        }
        return rows;
    }

    private static OptionalLong sum(List<String> header, List<String> values, String... columns) {
        double total = 0;
        for (String column : columns) {
            int i = header.indexOf(column);
            if (i < 0) {
                return OptionalLong.empty();
            }
            try {
                total += Double.parseDouble(values.get(i));
            } catch (NumberFormatException e) {
                return OptionalLong.empty();
            }
        }
        return OptionalLong.of(Math.round(total));
    }

    private static long kilobytes(List<String> statusLines, String field) {
        for (String line : statusLines) {
            if (line.startsWith(field)) {
                return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]);
            }
        }
        return -1;
    }

    /** The soft "Max open files" limit of a process, -1 if unreadable. */
    static long openFilesLimit(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/limits"))) {
                if (line.startsWith("Max open files")) {
                    String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
                    return "unlimited".equals(soft) ? Long.MAX_VALUE : Long.parseLong(soft);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // unreadable: reported as -1
        }
        return -1;
    }
}
