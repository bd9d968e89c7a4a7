package dev.servebench.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes the client-memory results as {@code client-memory-<date>.json} and {@code .md} and formats a row. */
final class ClientMemoryReport {

    private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ClientMemoryReport() {
    }

    /** One line per point for the console. */
    static String line(ClientRun.Result r) {
        RunSummary s = r.summary().orElse(null);
        return String.format(Locale.ROOT, "requests %8d  concurrency %5d  exit %-9s wall %7.1f s  heap peak %5s MiB"
                        + " (after GC max %s, last %s; %d pauses, %d full)  RSS peak %5s MiB (HWM %s)  output %s tok/s"
                        + "  dispatch lag p99 %s ms (first wave sent in %s ms, p99 after it %s ms)  completed %s failed %s%s",
                r.point().requests(), r.point().concurrency(), r.outcome().describe(), r.outcome().wallSeconds(),
                mib(r.memory().heapUsedPeakKb()), r.gc().maxAfterMib(), r.gc().lastAfterMib(), r.gc().pauses(),
                r.gc().fullPauses(), mib(r.memory().rssPeakKb()), mib(r.memory().hwmKb()),
                s == null ? "-" : fixed(s.outputThroughput(), 0), s == null ? "-" : fixed(s.p99DispatchLagMs(), 3),
                r.waves().map(w -> fixed(w.firstWaveSpanMs(), 1)).orElse("-"),
                r.waves().map(w -> fixed(w.afterFirstWaveP99Ms(), 3)).orElse("-"),
                s == null ? "-" : s.completed(), s == null ? "-" : s.failed(),
                r.outcome().exitCode() == 0 || r.outcome().timedOut() ? "" : "  (" + r.outcome().errorLine() + ")");
    }

    static void write(Path dir, String date, Map<String, Object> machine, List<ClientRun.Result> results)
            throws IOException {
        Files.createDirectories(dir);
        Path json = dir.resolve("client-memory-" + date + ".json");
        Path md = dir.resolve("client-memory-" + date + ".md");
        Files.writeString(json, MAPPER.writeValueAsString(json(date, machine, results)) + "\n");
        Files.writeString(md, markdown(date, machine, results));
        System.out.println("wrote " + json + " and " + md);
    }

    private static ObjectNode json(String date, Map<String, Object> machine, List<ClientRun.Result> results) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("benchmark", "client_memory");
        root.put("date", date);
        root.set("machine", MAPPER.valueToTree(machine));
        ArrayNode points = root.putArray("points");
        for (ClientRun.Result r : results) {
            ObjectNode p = points.addObject();
            p.put("requests", r.point().requests());
            p.put("concurrency", r.point().concurrency());
            p.put("exit_code", r.outcome().exitCode());
            p.put("timed_out", r.outcome().timedOut());
            p.put("out_of_memory", r.outcome().outOfMemory());
            p.put("wall_s", round(r.outcome().wallSeconds(), 2));
            if (r.outcome().exitCode() != 0 && !r.outcome().timedOut()) {
                p.put("error_line", r.outcome().errorLine());
            }
            p.put("heap_used_peak_mib", mibValue(r.memory().heapUsedPeakKb()));
            p.put("heap_committed_peak_mib", mibValue(r.memory().heapCommittedPeakKb()));
            p.put("heap_samples", r.memory().heapSamples());
            p.put("heap_before_gc_peak_mib", r.gc().peakBeforeMib());
            p.put("heap_after_gc_max_mib", r.gc().maxAfterMib());
            p.put("heap_after_last_gc_mib", r.gc().lastAfterMib());
            p.put("gc_pauses", r.gc().pauses());
            p.put("gc_full_pauses", r.gc().fullPauses());
            ArrayNode series = p.putArray("heap_after_gc_series_s_mib");
            r.gc().afterSeries().forEach(e -> series.addArray().add(round(e[0], 2)).add((long) e[1]));
            p.put("rss_peak_mib", mibValue(r.memory().rssPeakKb()));
            p.put("rss_hwm_mib", mibValue(r.memory().hwmKb()));
            p.put("rss_anon_peak_mib", mibValue(r.memory().rssAnonPeakKb()));
            p.put("rss_file_peak_mib", mibValue(r.memory().rssFilePeakKb()));
            p.put("rss_samples", r.memory().samples());
            p.put("open_files_limit", r.memory().openFilesLimit());
            p.put("records_file_bytes", r.recordsBytes());
            r.waves().ifPresent(w -> {
                p.put("first_wave_dispatch_span_ms", round(w.firstWaveSpanMs(), 3));
                p.put("first_wave_dispatch_lag_p99_ms", round(w.firstWaveP99Ms(), 3));
                p.put("after_first_wave_dispatch_lag_p99_ms", round(w.afterFirstWaveP99Ms(), 4));
            });
            r.summary().ifPresentOrElse(s -> {
                number(p, "output_throughput", round(s.outputThroughput(), 1));
                p.put("completed", s.completed());
                p.put("failed", s.failed());
                number(p, "duration_s", round(s.durationSeconds(), 3));
                number(p, "p99_dispatch_lag_ms", round(s.p99DispatchLagMs(), 4));
                p.put("valid", s.valid());
            }, () -> p.putNull("summary"));
        }
        return root;
    }

    private static String markdown(String date, Map<String, Object> machine, List<ClientRun.Result> results) {
        StringBuilder md = new StringBuilder("# Client memory vs run size — " + date + "\n\n");
        md.append("`servebench run` in its own JVM against the full-speed scripted server in another JVM "
                + "(see `ClientMemoryBenchmark`). Heap from `jstat -gc` every sample and from the GC log; RSS from "
                + "`/proc/<pid>/status`.\n\n");
        machine.forEach((k, v) -> md.append("- ").append(k).append(": ").append(v).append('\n'));
        md.append("\n| requests | concurrency | exit | wall s | peak heap MiB | heap after GC max / last MiB "
                + "| peak RSS MiB (anon / file) | output tok/s | dispatch lag p99 ms | first wave sent in ms | lag p99 after it ms "
                + "| completed / failed |\n");
        md.append("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ClientRun.Result r : results) {
            RunSummary s = r.summary().orElse(null);
            md.append(String.format(Locale.ROOT, "| %d | %d | %s | %.1f | %s | %d / %d | %s | %s | %s | %s | %s | %s |%n",
                    r.point().requests(), r.point().concurrency(), r.outcome().describe(), r.outcome().wallSeconds(),
                    mib(r.memory().heapUsedPeakKb()), r.gc().maxAfterMib(), r.gc().lastAfterMib(),
                    mib(r.memory().rssPeakKb()) + " (" + mib(r.memory().rssAnonPeakKb()) + " / "
                            + mib(r.memory().rssFilePeakKb()) + ")", s == null ? "–" : fixed(s.outputThroughput(), 0),
                    s == null ? "–" : fixed(s.p99DispatchLagMs(), 3),
                    r.waves().map(w -> fixed(w.firstWaveSpanMs(), 1)).orElse("–"),
                    r.waves().map(w -> fixed(w.afterFirstWaveP99Ms(), 3)).orElse("–"),
                    s == null ? "no summary" : s.completed() + " / " + s.failed()));
        }
        return md.toString();
    }

    /** JSON has no NaN: a missing number is null. */
    private static void number(ObjectNode node, String key, double value) {
        if (Double.isNaN(value)) {
            node.putNull(key);
        } else {
            node.put(key, value);
        }
    }

    private static String mib(long kb) {
        return kb < 0 ? "-" : Long.toString(Math.round(kb / 1024.0));
    }

    private static long mibValue(long kb) {
        return kb < 0 ? -1 : Math.round(kb / 1024.0);
    }

    private static String fixed(double v, int decimals) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%." + decimals + "f", v);
    }

    private static double round(double v, int decimals) {
        double scale = Math.pow(10, decimals);
        return Double.isNaN(v) ? v : Math.round(v * scale) / scale;
    }
}
