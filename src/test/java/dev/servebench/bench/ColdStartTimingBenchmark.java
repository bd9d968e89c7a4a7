package dev.servebench.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.load.ClientWarmup;
import dev.servebench.load.LoadDriver;
import dev.servebench.load.LoadPointResult;
import dev.servebench.load.LoadProgress;
import dev.servebench.metric.NumpyStats;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RecordSink;
import dev.servebench.record.RequestRecord;
import dev.servebench.testserver.EmissionLog;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.testserver.ServerOptions;
import dev.servebench.workload.PromptRequest;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Cold-start timing accuracy, as a user meets it: every repeat is a fresh JVM (a cold client), measuring a
 * server with a fixed TTFT of 50 ms and 10 ms between tokens at concurrency 16 (192 requests of 64 tokens,
 * closed loop), and compares every measured token arrival with the server's own emission log (same JVM,
 * same {@code System.nanoTime}). Two modes side by side, alternating per repeat: {@code warmed} is the
 * client as {@code servebench run} uses it by default (hot path warmed on a private loopback server,
 * connections opened, one server warm-up request); {@code cold} keeps only the one server warm-up request
 * (servebench before the client warm-up existed).
 *
 * <pre>./mvnw -B -Pclient-bench package -Dservebench.bench.main=dev.servebench.bench.ColdStartTimingBenchmark \
 *     -Dservebench.bench.args="5 reports/benchmarks [event-loops]"</pre>
 *
 * Prints and writes {@code client-timing-<date>.json/.md}: per repeat p99 |TTFT error|, p99 |ITL error|, the
 * first wave's median TTFT error against the later waves', and the medians over repeats.
 */
public final class ColdStartTimingBenchmark {

    private static final int CONCURRENCY = 16;
    private static final int REQUESTS = 192;
    private static final int TOKENS = 64;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ColdStartTimingBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            System.out.println(JSON.writer().without(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(repeat(args[1].equals("warmed"), Integer.parseInt(args[2]))));
            return;
        }
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path out = Path.of(args.length > 1 ? args[1] : "target");
        // servebench run's default: --client-threads = cores, at most 4.
        int ioThreads = args.length > 2 ? Integer.parseInt(args[2]) : Math.min(4, Runtime.getRuntime().availableProcessors());
        ObjectNode report = JSON.createObjectNode();
        report.put("setup", "scripted server in the client's JVM, TTFT 50 ms, 10 ms gaps, " + TOKENS + " tokens, "
                + REQUESTS + " requests, closed loop at concurrency " + CONCURRENCY + "; a fresh JVM per repeat");
        report.put("cores", Runtime.getRuntime().availableProcessors());
        report.put("java", System.getProperty("java.version"));
        report.put("client_event_loops", ioThreads);
        Map<String, ArrayNode> byMode = new HashMap<>();
        for (int r = 0; r < repeats; r++) {
            for (String mode : r % 2 == 0 ? List.of("warmed", "cold") : List.of("cold", "warmed")) {
                JsonNode result = child(mode, ioThreads);
                byMode.computeIfAbsent(mode, m -> report.putArray(m + "_repeats")).add(result);
                System.out.println(mode + " repeat " + (r + 1) + ": " + result);
            }
        }
        StringBuilder md = new StringBuilder("# Client cold-start timing accuracy (" + LocalDate.now() + ")\n\n")
                .append(report.get("setup").asText()).append(", ").append(report.get("cores").asInt())
                .append(" cores, Java ").append(report.get("java").asText()).append(", ").append(ioThreads)
                .append(" client event loop(s).\n\n")
                .append("| mode | p99 abs TTFT error ms | p99 abs ITL error ms | first wave median TTFT error ms | later waves median TTFT error ms | first minus later ms | first wave median TTFT ms |\n")
                .append("|---|---|---|---|---|---|---|\n");
        for (String mode : List.of("warmed", "cold")) {
            ArrayNode rows = byMode.get(mode);
            ObjectNode median = report.putObject(mode + "_median");
            for (String key : List.of("p99_abs_ttft_error_ms", "p99_abs_itl_error_ms", "first_wave_median_ttft_error_ms",
                    "later_waves_median_ttft_error_ms", "first_minus_later_ms", "first_wave_median_ttft_ms")) {
                double[] values = new double[rows.size()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = rows.get(i).get(key).asDouble();
                }
                median.put(key, NumpyStats.median(values));
            }
            for (JsonNode row : rows) {
                md.append(row(mode, row));
            }
            md.append(row("**" + mode + " median**", median));
        }
        Files.createDirectories(out);
        Path json = out.resolve("client-timing-" + LocalDate.now() + ".json");
        JSON.writeValue(json.toFile(), report);
        Files.writeString(out.resolve("client-timing-" + LocalDate.now() + ".md"), md.toString());
        System.out.print(md);
        System.out.println("written " + json);
    }

    private static double firstWaveMedian(double[] values) {
        return NumpyStats.median(java.util.Arrays.copyOfRange(values, 0, CONCURRENCY));
    }

    private static double laterWavesMedian(double[] values) {
        return NumpyStats.median(java.util.Arrays.copyOfRange(values, CONCURRENCY, values.length));
    }

    private static String row(String mode, JsonNode r) {
        return String.format(Locale.ROOT, "| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f |%n", mode,
                r.get("p99_abs_ttft_error_ms").asDouble(), r.get("p99_abs_itl_error_ms").asDouble(),
                r.get("first_wave_median_ttft_error_ms").asDouble(), r.get("later_waves_median_ttft_error_ms").asDouble(),
                r.get("first_minus_later_ms").asDouble(), r.get("first_wave_median_ttft_ms").asDouble());
    }

    private static JsonNode child(String mode, int ioThreads) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        Process process = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx1g", "-cp",
                System.getProperty("java.class.path"), ColdStartTimingBenchmark.class.getName(), "--child", mode,
                String.valueOf(ioThreads))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String last = null;
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream()))) {
            for (String line; (line = lines.readLine()) != null; ) {
                last = line;
            }
        }
        if (process.waitFor() != 0 || last == null) {
            throw new IllegalStateException("the " + mode + " repeat's JVM failed (exit " + process.exitValue() + ")");
        }
        return JSON.readTree(last);
    }

    /** One cold JVM: warm as {@code mode} says, measure, pair every record with its emission log. */
    private static ObjectNode repeat(boolean warmed, int ioThreads) throws Exception {
        Plan plan = Plan.builder().ttft(Duration.ofMillis(50)).gap(Duration.ofMillis(10)).build();
        Plan quick = Plan.builder().ttft(Duration.ofMillis(1)).gap(Duration.ofNanos(200_000)).build();
        Script script = Script.builder().byIndex(i -> i < SERVER_WARMUP ? quick : plan).build();
        try (ScriptedServer server = ScriptedServer.start(script, ServerOptions.defaults().withSpinNanos(0))) {
            warmServerOnly(server);
            ClientConfig config = new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS, Optional.empty(), ioThreads,
                    Duration.ofSeconds(30));
            RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.of("m"), true, null);
            List<PreparedRequest> measured = new ArrayList<>();
            for (int i = 0; i < REQUESTS; i++) {
                // Prompt length 1 + i is the request's identity in the server's emission log.
                int[] prompt = new int[1 + i];
                java.util.Arrays.fill(prompt, 7);
                measured.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, prompt, TOKENS)));
            }
            PreparedRequest serverWarmup = bodies.prepare(0, PromptRequest.ofTokenIds(0, new int[] {7}, 32));
            long hotPathMillis = -1;
            LoadPointResult result;
            Path records = Files.createTempFile("timing", ".jsonl");
            try (StreamingClient client = new StreamingClient(config, System::nanoTime)) {
                LoadDriver driver = new LoadDriver(client);
                if (warmed) {
                    hotPathMillis = ClientWarmup.warmHotPath(config, RecordJsonl::toLine).millis();
                    ClientWarmup.openConnections(client, CONCURRENCY);
                }
                driver.run(List.of(serverWarmup), new long[1], CONCURRENCY, r -> { }, LoadProgress.NONE);
                server.awaitEmissions(1, Duration.ofSeconds(10));
                server.clearEmissions();
                try (RecordSink sink = new RecordSink(records)) {
                    result = driver.run(measured, new long[REQUESTS], CONCURRENCY, sink::accept, LoadProgress.NONE);
                }
            } finally {
                Files.deleteIfExists(records);
            }
            Map<Integer, EmissionLog> byPrompt = new HashMap<>();
            for (EmissionLog e : server.awaitEmissions(REQUESTS, Duration.ofSeconds(30))) {
                byPrompt.put(e.promptTokens(), e);
            }
            return compare(result, byPrompt, warmed, hotPathMillis);
        }
    }

    /** Requests the server gets through the JDK's own HTTP client: they warm the server, not our client. */
    private static final int SERVER_WARMUP = 25 * CONCURRENCY;

    /**
     * The server shares the JVM (its emission log is the truth on the same clock); left cold, its own late
     * first emissions would be counted in the first wave's TTFT. The JDK client warms it without running a
     * line of servebench's client, in bursts of as many requests as the measured first wave (a burst of new
     * connections is its own path in the server).
     */
    private static void warmServerOnly(ScriptedServer server) throws Exception {
        String body = "{\"model\":\"m\",\"prompt\":[7],\"max_tokens\":" + TOKENS + ",\"stream\":true}";
        for (int burst = 0; burst < SERVER_WARMUP / CONCURRENCY; burst++) {
            // A new client per burst: its requests go out on new connections, as the measured first wave's do.
            try (java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                    .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
                List<java.util.concurrent.CompletableFuture<?>> pending = new ArrayList<>();
                for (int i = 0; i < CONCURRENCY; i++) {
                    pending.add(http.sendAsync(java.net.http.HttpRequest.newBuilder(
                                    server.baseUri().resolve("/v1/completions"))
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                            java.net.http.HttpResponse.BodyHandlers.discarding()));
                }
                pending.forEach(java.util.concurrent.CompletableFuture::join);
            }
        }
        server.awaitEmissions(SERVER_WARMUP, Duration.ofSeconds(30));
        server.clearEmissions();
    }

    private static ObjectNode compare(LoadPointResult result, Map<Integer, EmissionLog> byPrompt, boolean warmed,
                                      long hotPathMillis) {
        List<RequestRecord> bySend = new ArrayList<>(result.records());
        bySend.sort(Comparator.comparingLong(RequestRecord::sentNanos));
        double[] ttftError = new double[bySend.size()];
        double[] ttft = new double[bySend.size()];
        double[] sendToArrival = new double[bySend.size()];
        double[] serverLate = new double[bySend.size()];
        List<Double> itlError = new ArrayList<>();
        for (int i = 0; i < bySend.size(); i++) {
            RequestRecord r = bySend.get(i);
            EmissionLog e = byPrompt.get(r.promptLen());
            if (!r.succeeded() || e == null || r.chunks().size() != e.chunkNanos().length) {
                throw new IllegalStateException("request " + r.index() + " did not complete as emitted: " + r.outcome());
            }
            long[] emitted = e.chunkNanos();
            ttftError[i] = (r.chunks().nanosAt(0) - (emitted[0] - result.originNanos())) / 1e6;
            ttft[i] = r.sglangTtftSeconds() * 1e3;
            sendToArrival[i] = (e.arrivalNanos() - result.originNanos() - r.sentNanos()) / 1e6;
            serverLate[i] = (emitted[0] - e.startNanos() - e.ttftNanos()) / 1e6;
            for (int k = 1; k < emitted.length; k++) {
                long measuredGap = r.chunks().nanosAt(k) - r.chunks().nanosAt(k - 1);
                itlError.add(Math.abs(measuredGap - (emitted[k] - emitted[k - 1])) / 1e6);
            }
        }
        double[] abs = java.util.Arrays.stream(ttftError).map(Math::abs).toArray();
        double first = NumpyStats.median(java.util.Arrays.copyOfRange(ttftError, 0, CONCURRENCY));
        double later = NumpyStats.median(java.util.Arrays.copyOfRange(ttftError, CONCURRENCY, ttftError.length));
        ObjectNode row = JSON.createObjectNode();
        row.put("mode", warmed ? "warmed" : "cold");
        row.put("p99_abs_ttft_error_ms", NumpyStats.percentile(abs, 99));
        row.put("p99_abs_itl_error_ms", NumpyStats.percentile(itlError.stream().mapToDouble(d -> d).toArray(), 99));
        row.put("first_wave_median_ttft_error_ms", first);
        row.put("later_waves_median_ttft_error_ms", later);
        row.put("first_minus_later_ms", first - later);
        row.put("first_wave_median_ttft_ms", NumpyStats.median(java.util.Arrays.copyOfRange(ttft, 0, CONCURRENCY)));
        row.put("later_waves_median_ttft_ms",
                NumpyStats.median(java.util.Arrays.copyOfRange(ttft, CONCURRENCY, ttft.length)));
        row.put("hot_path_warmup_ms", hotPathMillis);
        row.put("first_wave_median_send_to_server_ms", firstWaveMedian(sendToArrival));
        row.put("later_waves_median_send_to_server_ms", laterWavesMedian(sendToArrival));
        row.put("first_wave_median_server_lateness_ms", firstWaveMedian(serverLate));
        row.put("later_waves_median_server_lateness_ms", laterWavesMedian(serverLate));
        return row;
    }
}
