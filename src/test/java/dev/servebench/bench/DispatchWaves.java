package dev.servebench.bench;

import dev.servebench.metric.NumpyStats;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * The client's dispatch lag split at the first wave. In a closed loop every one of the first {@code C}
 * requests is ready at t = 0, and writing C requests one after the other takes time on any client; the
 * summary's p99 over all requests is that burst whenever C is more than 1 % of the requests. Reading the
 * records file, this separates the burst (how long sending it took) from the lag once the run is going.
 *
 * @param firstWaveSpanMs   from the first to the last send of the first {@code concurrency} requests
 * @param firstWaveP99Ms    p99 dispatch lag within the first wave
 * @param afterFirstWaveP99Ms p99 dispatch lag of every later request
 */
record DispatchWaves(double firstWaveSpanMs, double firstWaveP99Ms, double afterFirstWaveP99Ms) {

    /** Empty when the file is missing or holds no more than one wave. */
    static Optional<DispatchWaves> read(Path records, int concurrency) throws IOException {
        if (!Files.isRegularFile(records)) {
            return Optional.empty();
        }
        long[] sent = new long[1024];
        long[] ready = new long[1024];
        int n = 0;
        try (BufferedReader lines = Files.newBufferedReader(records, StandardCharsets.UTF_8)) {
            for (String line; (line = lines.readLine()) != null; ) {
                if (n == sent.length) {
                    sent = Arrays.copyOf(sent, n * 2);
                    ready = Arrays.copyOf(ready, n * 2);
                }
                sent[n] = field(line, "\"sent_ns\":");
                ready[n] = field(line, "\"ready_ns\":");
                n++;
            }
        }
        if (n <= concurrency) {
            return Optional.empty();
        }
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        long[] s = sent;
        Arrays.sort(order, (a, b) -> Long.compare(s[a], s[b]));
        double[] first = new double[concurrency];
        double[] later = new double[n - concurrency];
        for (int k = 0; k < n; k++) {
            double lag = (sent[order[k]] - ready[order[k]]) / 1e6;
            if (k < concurrency) {
                first[k] = lag;
            } else {
                later[k - concurrency] = lag;
            }
        }
        double span = (sent[order[concurrency - 1]] - sent[order[0]]) / 1e6;
        return Optional.of(new DispatchWaves(span, NumpyStats.percentile(first, 99), NumpyStats.percentile(later, 99)));
    }

    private static long field(String line, String key) {
        int at = line.indexOf(key);
        if (at < 0) {
            throw new IllegalArgumentException("a records line has no " + key + " field: " + line.substring(0,
                    Math.min(80, line.length())));
        }
        int from = at + key.length();
        int to = from;
        while (to < line.length() && (Character.isDigit(line.charAt(to)) || line.charAt(to) == '-')) {
            to++;
        }
        return Long.parseLong(line, from, to, 10);
    }
}
