package dev.servebench.bench;

import dev.servebench.client.Backend;
import dev.servebench.client.ClientConfig;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.load.LoadDriver;
import dev.servebench.load.LoadPointResult;
import dev.servebench.load.LoadProgress;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.MetricOptions;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.server.EmbeddedTarget;
import dev.servebench.workload.PromptRequest;
import dev.servebench.workload.RandomDataset;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Embedded engine throughput, measured with servebench's own client: the engine runs as
 * {@code servebench serve} in a separate JVM (so its CPU and memory are its own), 128-token prompts,
 * 64 output tokens, ignore_eos; per concurrency the median over repeats of output token throughput,
 * the server's user and system CPU (cores) and its resident memory. Run with
 * {@code ./mvnw -B -Pclient-bench package -Dservebench.bench.main=dev.servebench.bench.EmbeddedEngineBenchmark
 * -Dservebench.bench.args="--weights f16"}.
 */
public final class EmbeddedEngineBenchmark {

    private static final Pattern SERVING_AT = Pattern.compile("at (http://\\S+)");

    private record Point(int concurrency, double outputThroughput, double serverUserCores, double serverSystemCores,
                         long rssKiB, double meanTtftMs, double meanItlMs) {}

    public static void main(String[] args) throws Exception {
        String weights = "f16";
        int[] concurrencies = {1, 16, 64};
        int repeats = 3;
        int inputLen = 128;
        int outputLen = 64;
        int contextPerSlot = inputLen + outputLen + 1;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--weights" -> weights = args[++i];
                case "--concurrency" -> concurrencies = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--context-per-slot" -> contextPerSlot = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; expected --weights f16|q4_0 --concurrency LIST --repeats N");
            }
        }
        int slots = Arrays.stream(concurrencies).max().orElse(1);
        Process server = startServer(weights, slots, contextPerSlot);
        try {
            URI base = readBaseUrl(server);
            System.out.printf(Locale.ROOT, "embedded engine (%s, %d slots) at %s, pid %d%n", weights, slots, base, server.pid());
            try (StreamingClient client = new StreamingClient(new ClientConfig(base, Backend.OPENAI.endpoint(),
                    Optional.empty(), 1, Duration.ofSeconds(120)), NanoClock.startingNow())) {
                LoadDriver driver = new LoadDriver(client);
                measure(driver, 4, 16, inputLen, outputLen, server.pid(), 0); // warm-up, discarded
                List<Point> medians = new ArrayList<>();
                for (int c : concurrencies) {
                    List<Point> runs = new ArrayList<>();
                    for (int r = 0; r < repeats; r++) {
                        runs.add(measure(driver, c, Math.max(4 * c, 16), inputLen, outputLen, server.pid(), 1000L * c + r + 1));
                    }
                    runs.sort((a, b) -> Double.compare(a.outputThroughput(), b.outputThroughput()));
                    Point m = runs.get(runs.size() / 2);
                    medians.add(m);
                    System.out.printf(Locale.ROOT, "concurrency %3d: output_throughput %7.1f tok/s (median of %d: %s)  "
                                    + "server CPU user %.2f / system %.2f cores  RSS %d MiB  mean TTFT %.1f ms  mean ITL %.2f ms%n",
                            c, m.outputThroughput(), repeats, runs.stream().map(p -> String.format(Locale.ROOT, "%.0f",
                                    p.outputThroughput())).toList(), m.serverUserCores(), m.serverSystemCores(),
                            m.rssKiB() / 1024, m.meanTtftMs(), m.meanItlMs());
                }
                System.out.printf(Locale.ROOT, "ratio output_throughput@%d / @%d = %.2f; peak RSS (VmHWM) %d MiB%n",
                        concurrencies[concurrencies.length > 1 ? 1 : 0], concurrencies[0],
                        medians.get(concurrencies.length > 1 ? 1 : 0).outputThroughput() / medians.get(0).outputThroughput(),
                        status(server.pid(), "VmHWM") / 1024);
            }
        } finally {
            server.destroy();
        }
    }

    private static Point measure(LoadDriver driver, int concurrency, int requests, int inputLen, int outputLen,
                                 long pid, long seed) throws Exception {
        RequestBodies bodies = new RequestBodies(Backend.OPENAI.endpoint(), Optional.empty(), true, null);
        List<PromptRequest> rows = RandomDataset.of(requests, inputLen, outputLen, 1.0)
                .withVocabulary(2048 - EmbeddedTarget.FIRST_ORDINARY_TOKEN, EmbeddedTarget.FIRST_ORDINARY_TOKEN)
                .requests(seed);
        List<PreparedRequest> prepared = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            prepared.add(bodies.prepare(i, rows.get(i)));
        }
        long[] before = cpuTicks(pid);
        LoadPointResult result = driver.run(prepared, new long[requests], concurrency, r -> { }, LoadProgress.NONE);
        long[] after = cpuTicks(pid);
        ServingSummary summary = SummaryCalculator.compute(result.records(), result.durationNanos(), MetricOptions.defaults());
        double wallTicks = result.clientUsage().wallNanos() / 1e7; // USER_HZ = 100
        if (summary.failedOutcomes() > 0) {
            throw new IllegalStateException(summary.failedOutcomes() + " requests failed at concurrency " + concurrency
                    + ", first: " + result.records().stream().filter(r -> !r.succeeded()).findFirst().orElseThrow().outcome());
        }
        return new Point(concurrency, summary.value(MetricId.OUTPUT_THROUGHPUT).orElseThrow(),
                (after[0] - before[0]) / wallTicks, (after[1] - before[1]) / wallTicks, status(pid, "VmRSS"),
                summary.value(MetricId.MEAN_TTFT_MS).orElseThrow(), summary.value(MetricId.MEAN_ITL_MS).orElseThrow());
    }

    private static Process startServer(String weights, int slots, int contextPerSlot) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        return new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                "dev.servebench.cli.Main", "serve", "--port", "0", "--weights", weights, "--slots", Integer.toString(slots),
                "--context-per-slot", Integer.toString(contextPerSlot))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static URI readBaseUrl(Process server) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null) {
            Matcher m = SERVING_AT.matcher(line);
            if (line.startsWith("servebench: serving") && m.find()) {
                return URI.create(m.group(1));
            }
        }
        throw new IOException("servebench serve exited before announcing its address");
    }

    /** utime and stime of a process in clock ticks. */
    private static long[] cpuTicks(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return new long[] {Long.parseLong(f[11]), Long.parseLong(f[12])};
    }

    /** A kB field of /proc/PID/status, e.g. VmRSS. */
    private static long status(long pid, String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return -1;
    }
}
