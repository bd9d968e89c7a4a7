package dev.servebench.bench;

import dev.servebench.client.Backend;
import dev.servebench.client.ClientConfig;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.load.LoadDriver;
import dev.servebench.load.LoadPointResult;
import dev.servebench.metric.NumpyStats;
import dev.servebench.record.RequestRecord;
import dev.servebench.workload.PromptRequest;
import dev.servebench.workload.RandomDataset;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Client ceiling: how fast servebench's own client ingests streams from a loopback server that answers
 * at full speed (the scripted server in a separate JVM, each response pre-rendered and written at once).
 *
 * <p>Reports, per (concurrency, stream length), the median over repeats of streamed tokens per second,
 * requests per second, the client's and the server's CPU (cores), and the client's dispatch lag. Run
 * with {@code ./mvnw -Pclient-bench package} (options via {@code -Dservebench.bench.args="..."}).
 */
public final class ClientCeilingBenchmark {

    private record Config(int[] concurrencies, int[] outputLens, int repeats, double secondsPerPoint, int ioThreads,
                          Path output) {}

    private record Point(int concurrency, int outputLen, int requests, double tokensPerSecond, double requestsPerSecond,
                         double clientCores, double serverCores, double p99DispatchLagMs, double maxDispatchLagMs,
                         double megabytesPerSecond, int failed, double clientCpuNanosPerToken) {}

    public static void main(String[] args) throws Exception {
        Config config = parse(args);
        try (ScriptedServerProcess server = ScriptedServerProcess.start(List.of("-Xmx2g"), List.of())) {
            long serverPid = server.pid();
            URI base = URI.create("http://127.0.0.1:" + server.port());
            List<Point> medians = new ArrayList<>();
            try (StreamingClient client = new StreamingClient(new ClientConfig(base, Backend.OPENAI.endpoint(),
                    Optional.empty(), config.ioThreads(), Duration.ofSeconds(60)), NanoClock.startingNow())) {
                LoadDriver driver = new LoadDriver(client);
                System.out.println("warming up the client JIT (discarded)...");
                measure(driver, 64, 256, 4000, serverPid);
                for (int outputLen : config.outputLens()) {
                    for (int concurrency : config.concurrencies()) {
                        List<Point> repeats = new ArrayList<>();
                        for (int r = 0; r < config.repeats(); r++) {
                            int requests = requestCount(concurrency, outputLen, config.secondsPerPoint());
                            repeats.add(measure(driver, concurrency, outputLen, requests, serverPid));
                        }
                        Point median = median(repeats);
                        medians.add(median);
                        System.out.println(row(median) + "   (tok/s of repeats: " + repeats.stream()
                                .map(p -> String.format(Locale.ROOT, "%.0f", p.tokensPerSecond())).toList() + ")");
                    }
                }
            }
            write(config.output(), medians, config);
        }
    }

    /** Aims at about {@code seconds} per point from a rough 2 M tokens/s, at least 4 rounds of the concurrency. */
    private static int requestCount(int concurrency, int outputLen, double seconds) {
        long byTokens = (long) (seconds * 2_000_000 / outputLen);
        long byLatency = concurrency == 1 ? (long) (seconds * 2000) : 0;
        return (int) Math.max(concurrency * 4L, Math.min(Math.max(byTokens, 64), Math.max(byLatency, byTokens)));
    }

    private static Point measure(LoadDriver driver, int concurrency, int outputLen, int requests, long serverPid)
            throws Exception {
        RandomDataset dataset = RandomDataset.of(requests, 16, outputLen, 1.0);
        RequestBodies bodies = new RequestBodies(Backend.OPENAI.endpoint(), Optional.of("scripted"), true, null);
        List<PromptRequest> rows = dataset.requests(1);
        List<PreparedRequest> prepared = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            prepared.add(bodies.prepare(i, rows.get(i)));
        }
        long serverCpuBefore = processCpuNanos(serverPid);
        long connectionsBefore = driver.client().connectionsOpened();
        LoadPointResult result = driver.run(prepared, new long[requests], concurrency, record -> { }, (a, b, c) -> { });
        long serverCpu = processCpuNanos(serverPid) - serverCpuBefore;
        System.out.println("  connections opened: " + (driver.client().connectionsOpened() - connectionsBefore));
        double seconds = result.durationNanos() / 1e9;
        long tokens = 0;
        int failed = 0;
        double[] lags = new double[result.records().size()];
        int k = 0;
        for (RequestRecord r : result.records()) {
            tokens += r.chunkOutputTokens();
            failed += r.succeeded() ? 0 : 1;
            lags[k++] = r.dispatchLagNanos() / 1e6;
        }
        return new Point(concurrency, outputLen, requests, tokens / seconds, result.records().size() / seconds,
                result.clientUsage().coresUsed(), serverCpu / (double) result.clientUsage().wallNanos(),
                NumpyStats.percentile(lags, 99), NumpyStats.max(lags),
                result.clientUsage().bytesReceived() / seconds / 1e6, failed,
                (double) result.clientUsage().cpuNanos() / Math.max(1, tokens));
    }

    private static Point median(List<Point> points) {
        List<Point> sorted = new ArrayList<>(points);
        sorted.sort((a, b) -> Double.compare(a.tokensPerSecond(), b.tokensPerSecond()));
        return sorted.get(sorted.size() / 2);
    }

    private static String row(Point p) {
        return String.format(Locale.ROOT, "concurrency %5d  stream %5d tokens  %10.0f streamed tok/s  %8.0f req/s  "
                        + "client %.2f cores (%.0f ns CPU/token)  server %.2f cores  %7.1f MB/s  dispatch lag p99 %.3f ms max %.3f ms  failed %d",
                p.concurrency(), p.outputLen(), p.tokensPerSecond(), p.requestsPerSecond(), p.clientCores(),
                p.clientCpuNanosPerToken(), p.serverCores(), p.megabytesPerSecond(), p.p99DispatchLagMs(),
                p.maxDispatchLagMs(), p.failed());
    }

    private static void write(Path output, List<Point> points, Config config) throws IOException {
        StringBuilder json = new StringBuilder("{\n  \"benchmark\": \"client_ceiling\",\n  \"cores\": "
                + Runtime.getRuntime().availableProcessors() + ",\n  \"repeats\": " + config.repeats() + ",\n  \"points\": [\n");
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            json.append(String.format(Locale.ROOT, "    {\"concurrency\": %d, \"output_len\": %d, \"requests\": %d, "
                            + "\"streamed_tokens_per_s\": %.1f, \"requests_per_s\": %.1f, \"client_cores\": %.3f, "
                            + "\"server_cores\": %.3f, \"received_mb_per_s\": %.1f, \"p99_dispatch_lag_ms\": %.4f, "
                            + "\"max_dispatch_lag_ms\": %.4f, \"failed\": %d, \"client_cpu_ns_per_token\": %.1f}%s\n",
                    p.concurrency(), p.outputLen(), p.requests(), p.tokensPerSecond(), p.requestsPerSecond(),
                    p.clientCores(), p.serverCores(), p.megabytesPerSecond(), p.p99DispatchLagMs(), p.maxDispatchLagMs(),
                    p.failed(), p.clientCpuNanosPerToken(), i + 1 < points.size() ? "," : ""));
        }
        json.append("  ]\n}\n");
        Files.createDirectories(output.toAbsolutePath().getParent());
        Files.writeString(output, json.toString());
        System.out.println("wrote " + output);
    }

    /** utime + stime of a process from /proc, in nanoseconds (Linux; 0 elsewhere). */
    private static long processCpuNanos(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long ticks = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
            return ticks * 10_000_000L; // USER_HZ is 100 on Linux
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static Config parse(String[] args) {
        int[] concurrencies = {1, 64, 256, 1024};
        int[] outputLens = {1024, 128};
        int repeats = 3;
        double seconds = 4;
        int threads = Math.min(4, Runtime.getRuntime().availableProcessors());
        Path output = Path.of("target/client-ceiling.json");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--concurrency" -> concurrencies = ints(args[++i]);
                case "--output-len" -> outputLens = ints(args[++i]);
                case "--repeats" -> repeats = Integer.parseInt(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--io-threads" -> threads = Integer.parseInt(args[++i]);
                case "--output" -> output = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; expected --concurrency LIST --output-len LIST --repeats N --seconds S --io-threads N --output FILE");
            }
        }
        return new Config(concurrencies, outputLens, repeats, seconds, threads, output);
    }

    private static int[] ints(String list) {
        return Arrays.stream(list.split(",")).mapToInt(s -> Integer.parseInt(s.trim())).toArray();
    }
}
