package dev.servebench.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Timing accuracy benchmark: 16 streams, TTFT 50 ms, 10 ms gaps, 50 tokens, against the scripted server's
 * emission log; prints p99 |TTFT error| and p99 |ITL error| per repeat and their medians. Run with
 * {@code ./mvnw -Pclient-bench package -Dservebench.bench.main=dev.servebench.bench.TimingAccuracyBenchmark}.
 */
public final class TimingAccuracyBenchmark {
    private TimingAccuracyBenchmark() {}

    public static void main(String[] args) throws Exception {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        List<Double> ttft = new ArrayList<>();
        List<Double> itl = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            TimingProbe.Errors e = TimingProbe.measure(16, 50, Duration.ofMillis(50), Duration.ofMillis(10));
            ttft.add(e.p99AbsTtftMs());
            itl.add(e.p99ItlMs());
            System.out.printf(Locale.ROOT, "repeat %d: p99 |TTFT error| %.3f ms, p99 |ITL error| %.3f ms, max |ITL error| %.3f ms%n",
                    r + 1, e.p99AbsTtftMs(), e.p99ItlMs(), e.maxItlMs());
        }
        ttft.sort(null);
        itl.sort(null);
        System.out.printf(Locale.ROOT, "median of %d repeats: p99 |TTFT error| %.3f ms, p99 |ITL error| %.3f ms (goal < 1 ms)%n",
                repeats, ttft.get(repeats / 2), itl.get(repeats / 2));
    }
}
