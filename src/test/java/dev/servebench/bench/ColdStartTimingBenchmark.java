package dev.servebench.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.IoTransport;
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
 * closed loop), and compares every measured token arrival with the server's own emission log. The server is
 * a process of its own ({@code ScriptedServerMain --emissions}), as real servers are: it does not share the
 * client's GC, JIT or threads, it is warmed once with bursts of new connections, and it stays up (warm) for
 * all repeats. Both JVMs stamp with {@code System.nanoTime()}, {@code CLOCK_MONOTONIC} on Linux: one clock.
 * Client modes side by side (all five unless a list is given), their order rotating per repeat: {@code warmed}
 * is the client as
 * {@code servebench run} uses it by default (hot path warmed on a private loopback server, the point's
 * connections opened, one server warm-up request); {@code cold} keeps only the one server warm-up request;
 * {@code plain} is no framework at all ({@link PlainSocketRun}: a blocking socket per thread, warmed like
 * {@code warmed}), the reference that tells the machine's share of the error from the client's;
 * {@code warmed-epsilon} is {@code warmed} in a JVM whose collector never collects (Epsilon, 6 GiB), which tells
 * the garbage collector's share; {@code warmed-nio} is {@code warmed} on Java NIO instead of the default epoll
 * transport ({@link IoTransport}). Each repeat also reports the collections during its measured requests.
 *
 * <pre>./mvnw -B -Pclient-bench package -Dservebench.bench.main=dev.servebench.bench.ColdStartTimingBenchmark \
 *     -Dservebench.bench.args="5 reports/benchmarks [event-loops [mode,mode,...]]"</pre>
 *
 * Prints and writes {@code client-timing-<date>.json/.md}: per repeat p99 |TTFT error|, p99 |ITL error|, the
 * first wave's median measured TTFT against the later waves', where the first wave's extra time went, and
 * the medians over repeats.
 */
public final class ColdStartTimingBenchmark {

    private static final int CONCURRENCY = 16;
    private static final int REQUESTS = 192;
    private static final int TOKENS = 64;
    /** Requests the server answers fast before the measured ones: its own warm-up, in bursts of new connections. */
    private static final int SERVER_WARMUP = 40 * CONCURRENCY;
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final List<String> COLUMNS = List.of("p99_abs_ttft_error_ms", "p99_abs_itl_error_ms",
            "first_wave_median_ttft_ms", "later_waves_median_ttft_ms", "first_minus_later_ttft_ms",
            "first_wave_median_send_to_server_ms", "later_waves_median_send_to_server_ms",
            "first_wave_median_server_lateness_ms", "later_waves_median_server_lateness_ms", "gc_collections_measured",
            "gc_ms_measured");

    /** In the order of the first repeat; each later repeat starts one mode further. */
    private static final List<String> ALL_MODES = List.of("warmed", "cold", "plain", "warmed-epsilon", "warmed-nio");

    private ColdStartTimingBenchmark() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--child")) {
            System.out.println(JSON.writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(
                    measure(args[1], Integer.parseInt(args[2]), Integer.parseInt(args[3]))));
            return;
        }
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path out = Path.of(args.length > 1 ? args[1] : "target");
        // servebench run's default: --client-threads = cores, at most 4.
        int ioThreads = args.length > 2 ? Integer.parseInt(args[2]) : Math.min(4, Runtime.getRuntime().availableProcessors());
        List<String> modes = args.length > 3 ? List.of(args[3].split(",")) : ALL_MODES;
        if (!ALL_MODES.containsAll(modes)) {
            throw new IllegalArgumentException("modes " + modes + ": each must be one of " + ALL_MODES);
        }
        ObjectNode report = JSON.createObjectNode();
        report.put("setup", "scripted server in its own JVM (one event loop, warmed with " + SERVER_WARMUP
                + " requests in bursts of " + CONCURRENCY + " new connections, up for all repeats), TTFT 50 ms, 10 ms gaps, "
                + TOKENS + " tokens, " + REQUESTS + " requests, closed loop at concurrency " + CONCURRENCY
                + "; a fresh client JVM per repeat; plain: " + CONCURRENCY + " threads with a blocking socket each");
        report.put("cores", Runtime.getRuntime().availableProcessors());
        report.put("java", System.getProperty("java.version"));
        report.put("client_event_loops", ioThreads);
        Map<String, ArrayNode> byMode = new HashMap<>();
        try (ScriptedServerProcess server = ScriptedServerProcess.start(List.of("-Xmx1g"), List.of("--threads", "1",
                "--ttft-ms", "50", "--gap-ms", "10", "--quick-first", String.valueOf(SERVER_WARMUP), "--emissions"))) {
            warmServer(server.port());
            for (int r = 0; r < repeats; r++) {
                for (int k = 0; k < modes.size(); k++) {
                    String mode = modes.get((r + k) % modes.size());
                    server.command("CLEAR", "CLEARED");
                    JsonNode client = child(mode, ioThreads, server.port());
                    ObjectNode result = compare(client, emissions(server), mode);
                    byMode.computeIfAbsent(mode, m -> report.putArray(m + "_repeats")).add(result);
                    System.out.println(mode + " repeat " + (r + 1) + ": " + result);
                }
            }
        }
        StringBuilder md = new StringBuilder("# Client cold-start timing accuracy (" + LocalDate.now() + ")\n\n")
                .append(report.get("setup").asText()).append(", ").append(report.get("cores").asInt())
                .append(" cores, Java ").append(report.get("java").asText()).append(", ").append(ioThreads)
                .append(" client event loop(s).\n\n| mode | ")
                .append(String.join(" | ", COLUMNS.stream().map(c -> c.replace('_', ' ')).toList()))
                .append(" |\n|---|").append("---|".repeat(COLUMNS.size())).append('\n');
        for (String mode : modes) {
            ArrayNode rows = byMode.get(mode);
            ObjectNode median = report.putObject(mode + "_median");
            for (String key : COLUMNS) {
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

    private static String row(String mode, JsonNode r) {
        StringBuilder line = new StringBuilder("| ").append(mode);
        for (String key : COLUMNS) {
            line.append(String.format(Locale.ROOT, " | %.3f", r.get(key).asDouble()));
        }
        return line.append(" |\n").toString();
    }

    private static JsonNode child(String mode, int ioThreads, int port) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED"));
        // Epsilon never collects: whatever the warmed client loses to its collector's pauses, this one does not
        command.addAll(mode.endsWith("-epsilon")
                ? List.of("-XX:+UnlockExperimentalVMOptions", "-XX:+UseEpsilonGC", "-Xmx6g")
                : List.of("-Xmx1g"));
        if (mode.endsWith("-nio")) {
            command.add("-D" + IoTransport.PROPERTY + "=nio");
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ColdStartTimingBenchmark.class.getName(),
                "--child", mode, String.valueOf(ioThreads), String.valueOf(port)));
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start();
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

    /**
     * One cold client JVM: warm as {@code mode} says, measure, print every request's send and token arrival
     * times on the shared monotonic clock.
     */
    private static ObjectNode measure(String mode, int ioThreads, int port) throws Exception {
        RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.of("m"), true, null);
        List<PreparedRequest> measured = new ArrayList<>();
        for (int i = 0; i < REQUESTS; i++) {
            // Prompt length 2 + i is the request's identity in the server's emission log (1 is the warm-up's).
            int[] prompt = new int[2 + i];
            java.util.Arrays.fill(prompt, 7);
            measured.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, prompt, TOKENS)));
        }
        PreparedRequest serverWarmup = bodies.prepare(0, PromptRequest.ofTokenIds(0, new int[] {7}, 32));
        ClientTimes times = switch (mode) {
            case "warmed", "cold", "warmed-epsilon", "warmed-nio" -> measureClient(!mode.equals("cold"), ioThreads, port, measured,
                    serverWarmup);
            case "plain" -> PlainSocketRun.measure(port, measured, serverWarmup, CONCURRENCY);
            default -> throw new IllegalArgumentException("mode '" + mode + "' is not one of " + ALL_MODES);
        };
        return times.toJson(JSON);
    }

    private static ClientTimes measureClient(boolean warmed, int ioThreads, int port, List<PreparedRequest> measured,
                                            PreparedRequest serverWarmup) throws Exception {
        ClientConfig config = new ClientConfig(java.net.URI.create("http://127.0.0.1:" + port), Endpoint.COMPLETIONS,
                Optional.empty(), ioThreads, Duration.ofSeconds(30));
        long hotPathMillis = -1;
        LoadPointResult result;
        GcWindow measuredGc;
        Path records = Files.createTempFile("timing", ".jsonl");
        try (StreamingClient client = new StreamingClient(config, System::nanoTime)) {
            LoadDriver driver = new LoadDriver(client);
            if (warmed) {
                hotPathMillis = ClientWarmup.warmHotPath(config, RecordJsonl::toLine).millis();
                ClientWarmup.openConnections(client, CONCURRENCY);
            }
            driver.run(List.of(serverWarmup), new long[1], CONCURRENCY, r -> { }, LoadProgress.NONE);
            GcWindow gcBefore = GcWindow.now();
            try (RecordSink sink = new RecordSink(records)) {
                result = driver.run(measured, new long[REQUESTS], CONCURRENCY, sink::accept, LoadProgress.NONE);
            }
            measuredGc = GcWindow.now().since(gcBefore);
        } finally {
            Files.deleteIfExists(records);
        }
        List<ClientTimes.Request> timed = new ArrayList<>();
        for (RequestRecord r : result.records()) {
            if (!r.succeeded()) {
                throw new IllegalStateException("request " + r.index() + " failed: " + r.outcome());
            }
            long[] chunks = new long[r.chunks().size()];
            for (int k = 0; k < chunks.length; k++) {
                chunks[k] = r.chunks().nanosAt(k);
            }
            timed.add(new ClientTimes.Request(r.promptLen(), r.sentNanos(), r.sglangTtftSeconds() * 1e3, chunks));
        }
        return new ClientTimes(result.originNanos(), hotPathMillis, measuredGc, timed);
    }

    /** Holds the client's times (relative to its origin) against the server's emission log (absolute). */
    private static ObjectNode compare(JsonNode client, Map<Integer, JsonNode> byPrompt, String mode) {
        long origin = client.get("origin_nanos").asLong();
        List<JsonNode> bySend = new ArrayList<>();
        client.get("requests").forEach(bySend::add);
        bySend.sort(Comparator.comparingLong(r -> r.get("sent_nanos").asLong()));
        int n = bySend.size();
        double[] ttftError = new double[n];
        double[] ttft = new double[n];
        double[] sendToArrival = new double[n];
        double[] serverLate = new double[n];
        List<Double> itlError = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            JsonNode r = bySend.get(i);
            JsonNode e = byPrompt.get(r.get("prompt_len").asInt());
            JsonNode measured = r.get("chunk_nanos");
            JsonNode emitted = e == null ? null : e.get("chunk_nanos");
            if (emitted == null || measured.size() != emitted.size()) {
                throw new IllegalStateException("request with prompt " + r.get("prompt_len") + " did not complete as emitted");
            }
            long sent = r.get("sent_nanos").asLong();
            ttftError[i] = (measured.get(0).asLong() - (emitted.get(0).asLong() - origin)) / 1e6;
            ttft[i] = r.get("ttft_ms").asDouble();
            sendToArrival[i] = (e.get("arrival_nanos").asLong() - origin - sent) / 1e6;
            serverLate[i] = (emitted.get(0).asLong() - e.get("start_nanos").asLong() - e.get("ttft_nanos").asLong()) / 1e6;
            for (int k = 1; k < emitted.size(); k++) {
                long measuredGap = measured.get(k).asLong() - measured.get(k - 1).asLong();
                itlError.add(Math.abs(measuredGap - (emitted.get(k).asLong() - emitted.get(k - 1).asLong())) / 1e6);
            }
        }
        ObjectNode row = JSON.createObjectNode();
        row.put("mode", mode);
        row.put("p99_abs_ttft_error_ms", NumpyStats.percentile(java.util.Arrays.stream(ttftError).map(Math::abs).toArray(), 99));
        row.put("p99_abs_itl_error_ms", NumpyStats.percentile(itlError.stream().mapToDouble(d -> d).toArray(), 99));
        row.put("first_wave_median_ttft_error_ms", firstWave(ttftError));
        row.put("later_waves_median_ttft_error_ms", laterWaves(ttftError));
        row.put("first_wave_median_ttft_ms", firstWave(ttft));
        row.put("later_waves_median_ttft_ms", laterWaves(ttft));
        row.put("first_minus_later_ttft_ms", firstWave(ttft) - laterWaves(ttft));
        row.put("first_wave_median_send_to_server_ms", firstWave(sendToArrival));
        row.put("later_waves_median_send_to_server_ms", laterWaves(sendToArrival));
        row.put("first_wave_median_server_lateness_ms", firstWave(serverLate));
        row.put("later_waves_median_server_lateness_ms", laterWaves(serverLate));
        row.put("hot_path_warmup_ms", client.get("hot_path_warmup_ms").asLong());
        row.put("gc_collections_measured", client.get("gc_collections_measured").asLong());
        row.put("gc_ms_measured", client.get("gc_ms_measured").asLong());
        return row;
    }

    private static double firstWave(double[] values) {
        return NumpyStats.median(java.util.Arrays.copyOfRange(values, 0, CONCURRENCY));
    }

    private static double laterWaves(double[] values) {
        return NumpyStats.median(java.util.Arrays.copyOfRange(values, CONCURRENCY, values.length));
    }

    /**
     * The JDK's HTTP client warms the server without running a line of servebench's client, in bursts of as
     * many new connections as the measured first wave has (a burst of new connections is its own path in the
     * server).
     */
    private static void warmServer(int port) throws Exception {
        String body = "{\"model\":\"m\",\"prompt\":[7],\"max_tokens\":" + TOKENS + ",\"stream\":true}";
        for (int burst = 0; burst < SERVER_WARMUP / CONCURRENCY; burst++) {
            try (java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                    .version(java.net.http.HttpClient.Version.HTTP_1_1).build()) {
                List<java.util.concurrent.CompletableFuture<?>> pending = new ArrayList<>();
                for (int i = 0; i < CONCURRENCY; i++) {
                    pending.add(http.sendAsync(java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + port + "/v1/completions"))
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body)).build(),
                            java.net.http.HttpResponse.BodyHandlers.discarding()));
                }
                pending.forEach(java.util.concurrent.CompletableFuture::join);
            }
        }
    }

    /** The server's emission logs so far, by prompt length (each measured request's identity). */
    private static Map<Integer, JsonNode> emissions(ScriptedServerProcess server) throws Exception {
        Path file = Files.createTempFile("emissions", ".jsonl");
        try {
            server.command("DUMP " + file, "DUMPED");
            Map<Integer, JsonNode> byPrompt = new HashMap<>();
            for (String line : Files.readAllLines(file)) {
                JsonNode log = JSON.readTree(line);
                byPrompt.put(log.get("prompt_tokens").asInt(), log);
            }
            return byPrompt;
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
