package dev.servebench.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Client memory: does a {@code servebench run} process keep flat memory as a run grows? Heap used and RSS of
 * the client vs number of requests and vs concurrency, with output tok/s, the client's dispatch lag p99, the
 * exit code and the wall time beside them, so a point that only fits by going slow or failing shows as such.
 *
 * <pre>
 * ./mvnw -B -Pclient-bench package -Dservebench.bench.main=dev.servebench.bench.ClientMemoryBenchmark
 * ./mvnw -B -Pclient-bench package -Dservebench.bench.main=dev.servebench.bench.ClientMemoryBenchmark \
 *     -Dservebench.bench.args="--requests 2000 --concurrency 64,512 --report-dir target/benchmarks"
 * </pre>
 *
 * <p>Setup: the full-speed scripted server ({@code ScriptedServerMain}: zero TTFT and gap, every response
 * pre-rendered) runs in its own JVM ({@code -Xmx2g}, {@code --server-threads} event loops, default 1,
 * {@code --max-connections} at least 10,500). For each point, {@code servebench run} ({@code dev.servebench.cli.Main}
 * from this classpath, or {@code --jar target/servebench.jar}, built by an earlier {@code package}: the profile
 * runs the benchmark before it shades the jar) runs as a child JVM with {@code -Xmx1g
 * -XX:+UseG1GC}: random dataset, 16 input and 128 output tokens (range ratio 1), closed loop at the point's
 * concurrency, 1 warm-up request, no progress bar. The default plan is 10k, 100k, 1M requests at concurrency
 * 256 and concurrency 256, 2000, 8000, 10000 at 100k requests ({@code --requests LIST --concurrency LIST} runs
 * their product instead; {@code --points 10000x256,1Mx256} lists points; counts take k and M).
 *
 * <p>What the numbers mean. <em>Peak heap</em>: largest heap used (survivors + eden + old) over {@code jstat -gc}
 * samples every 100 ms; it mostly tracks how large G1 let eden grow before a collection (sized for its pause
 * goal, bounded by -Xmx), not what the client keeps. <em>Heap after GC</em> (max over the
 * run, and after the last pause, from {@code -Xlog:gc}): what survived a collection; after a young pause it
 * still holds old garbage not yet collected, so it is an upper bound of the live set. This is the number that
 * must stay flat as requests grow; it grows with per-request storage (metrics, records) and with concurrency
 * (buffers per connection). <em>Peak RSS</em>: largest {@code VmRSS} sample ({@code VmHWM}, the kernel's exact
 * peak, beside it in the JSON): heap committed + metaspace + code cache + thread stacks + Netty direct and
 * native buffers; G1 is slow to give committed heap back, so RSS follows the largest committed heap. <em>Wall
 * s</em>: the child's whole life (JVM start, dataset, warm-up, run, writing the records file: about 2.5 KB per
 * request, so 2.5 GB under {@code target/} at 1 M requests). <em>Output tok/s</em>, <em>dispatch lag p99</em>,
 * completed/failed: from the run's summary.
 * Exit codes: 0 ok, 2 bad input, 3 invalid point, 4 internal error, 1 an uncaught error (seen: an
 * OutOfMemoryError while preparing the requests, before the run starts); "(OOM)" marks an OutOfMemoryError in
 * the child's output; "timeout" when killed after {@code --timeout-s} (default 1800). Every outcome is reported,
 * none stops the plan.
 *
 * <p>Noise: samples are 100 ms apart, so a peak between samples is missed (VmHWM is not); GC timing makes heap
 * figures move by tens of MiB from run to run, more on a shared machine; throughput and dispatch lag depend on
 * the server and jstat sharing the cores (2 on the build machine): compare memory across points, and take
 * throughput as a sanity check, not a ceiling (see {@code ClientCeilingBenchmark}). Each point also opens
 * {@code concurrency} sockets in each process: the JSON records the child's open-files limit.
 *
 * <p>Writes {@code <report-dir>/client-memory-<yyyy-MM-dd>.json} and {@code .md} (default report dir
 * {@code reports/benchmarks}); each point's stdout, stderr, GC log, command and summary stay in
 * {@code target/client-memory/<time>/<point>/} (the records file is deleted unless {@code --keep-records}).
 */
public final class ClientMemoryBenchmark {

    private static final int MIN_SERVER_CONNECTIONS = 10_500;

    record Options(List<ClientRun.Point> plan, int outputLen, String maxHeap, int serverThreads, int sampleMillis,
                   Duration timeout, Path reportDir, Path jar, boolean keepRecords) {}

    private ClientMemoryBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        try {
            run(parse(args));
        } catch (BenchmarkException e) {
            System.err.println("client-memory benchmark: " + e.getMessage());
            System.exit(1);
        }
    }

    private static void run(Options options) throws IOException, InterruptedException {
        int maxConcurrency = options.plan().stream().mapToInt(ClientRun.Point::concurrency).max().orElse(1);
        int serverConnections = Math.max(MIN_SERVER_CONNECTIONS, maxConcurrency + 500);
        ClientRun.Jvm jvm = new ClientRun.Jvm(options.maxHeap(), launcher(options.jar()), options.sampleMillis(),
                options.timeout(), options.keepRecords());
        Path work = Path.of("target", "client-memory",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        List<ClientRun.Result> results = new ArrayList<>();
        try (ScriptedServerProcess server = ScriptedServerProcess.start(List.of("-Xmx2g"), List.of(
                "--threads", Integer.toString(options.serverThreads()),
                "--max-connections", Integer.toString(serverConnections)))) {
            long serverFiles = MemorySampler.openFilesLimit(server.pid());
            System.out.printf("scripted server on port %d (pid %d, %d event loop(s), max connections %d, "
                            + "open files limit %d); child: -Xmx%s -XX:+UseG1GC; work dir %s%n", server.port(),
                    server.pid(), options.serverThreads(), serverConnections, serverFiles, options.maxHeap(), work);
            if (serverFiles >= 0 && serverFiles < maxConcurrency + 100L) {
                System.out.println("WARNING: the server's open files limit " + serverFiles
                        + " is below the plan's concurrency " + maxConcurrency + " (+100): expect refused connections");
            }
            for (ClientRun.Point point : options.plan()) {
                if (!ProcessHandle.of(server.pid()).map(ProcessHandle::isAlive).orElse(false)) {
                    throw new BenchmarkException("the scripted server exited during the run (its stderr is above)");
                }
                ClientRun.Result result = ClientRun.run(point, jvm, server.port(), options.outputLen(),
                        work.resolve(point.label()));
                results.add(result);
                System.out.println(ClientMemoryReport.line(result));
            }
            Map<String, Object> machine = machine(options, serverConnections, serverFiles);
            ClientMemoryReport.write(options.reportDir(), LocalDate.now().toString(), machine, results);
        }
    }

    private static List<String> launcher(Path jar) {
        if (jar == null) {
            return List.of("-cp", System.getProperty("java.class.path"), "dev.servebench.cli.Main");
        }
        if (!Files.isRegularFile(jar)) {
            throw new BenchmarkException(jar + " not found — build it with ./mvnw -B -q package -DskipTests");
        }
        return List.of("-jar", jar.toString());
    }

    private static Map<String, Object> machine(Options options, int serverConnections, long serverFiles) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("cores", Runtime.getRuntime().availableProcessors());
        m.put("memory", firstLine(Path.of("/proc/meminfo")).replaceAll("\\s+", " "));
        m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version"));
        m.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"));
        m.put("client_jvm", "-Xmx" + options.maxHeap() + " -XX:+UseG1GC");
        m.put("client", options.jar() == null ? "dev.servebench.cli.Main from the test classpath" : options.jar().toString());
        m.put("server", "ScriptedServerMain -Xmx2g, " + options.serverThreads() + " event loop(s), max connections "
                + serverConnections + ", open files limit " + serverFiles);
        m.put("workload", "random, 16 input / " + options.outputLen() + " output tokens, range ratio 1, closed loop, "
                + "1 warm-up request");
        m.put("sample_interval_ms", options.sampleMillis());
        m.put("ephemeral_ports", firstLine(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).replaceAll("\\s+", "-"));
        m.put("commit", Git.describe());
        return m;
    }

    private static String firstLine(Path file) {
        try {
            return Files.readAllLines(file).getFirst().strip();
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    static Options parse(String[] args) {
        List<ClientRun.Point> points = null;
        int[] requests = null;
        int[] concurrencies = null;
        int outputLen = 128;
        String maxHeap = "1g";
        int serverThreads = 1;
        int sampleMillis = 100;
        Duration timeout = Duration.ofMinutes(30);
        Path reportDir = Path.of("reports", "benchmarks");
        Path jar = null;
        boolean keepRecords = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("--keep-records")) {
                keepRecords = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw usage(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--points" -> points = Arrays.stream(value.split(",")).map(ClientMemoryBenchmark::point).toList();
                case "--requests" -> requests = counts(value);
                case "--concurrency" -> concurrencies = counts(value);
                case "--output-len" -> outputLen = count(value);
                case "--xmx" -> maxHeap = value;
                case "--server-threads" -> serverThreads = count(value);
                case "--sample-ms" -> sampleMillis = count(value);
                case "--timeout-s" -> timeout = Duration.ofSeconds(count(value));
                case "--report-dir" -> reportDir = Path.of(value);
                case "--jar" -> jar = Path.of(value);
                default -> throw usage("unknown option " + flag);
            }
        }
        if (points != null && (requests != null || concurrencies != null)) {
            throw usage("--points cannot be combined with --requests or --concurrency");
        }
        if (points == null) {
            points = requests == null && concurrencies == null ? defaultPlan()
                    : product(requests == null ? new int[] {100_000} : requests,
                    concurrencies == null ? new int[] {256} : concurrencies);
        }
        return new Options(points, outputLen, maxHeap, serverThreads, sampleMillis, timeout, reportDir, jar,
                keepRecords);
    }

    /** Requests at concurrency 256, then concurrency at 100k requests; the 1M point last (longest, may fail). */
    static List<ClientRun.Point> defaultPlan() {
        return List.of(new ClientRun.Point(10_000, 256), new ClientRun.Point(100_000, 256),
                new ClientRun.Point(100_000, 2_000), new ClientRun.Point(100_000, 8_000),
                new ClientRun.Point(100_000, 10_000), new ClientRun.Point(1_000_000, 256));
    }

    private static List<ClientRun.Point> product(int[] requests, int[] concurrencies) {
        List<ClientRun.Point> plan = new ArrayList<>();
        for (int r : requests) {
            for (int c : concurrencies) {
                plan.add(new ClientRun.Point(r, c));
            }
        }
        return plan;
    }

    private static ClientRun.Point point(String text) {
        String[] parts = text.trim().split("x");
        if (parts.length != 2) {
            throw usage("point '" + text + "' must be REQUESTSxCONCURRENCY, e.g. 100kx256");
        }
        return new ClientRun.Point(count(parts[0]), count(parts[1]));
    }

    private static int[] counts(String list) {
        return Arrays.stream(list.split(",")).mapToInt(ClientMemoryBenchmark::count).toArray();
    }

    /** A positive count; k and M multiply by 1,000 and 1,000,000. */
    static int count(String text) {
        String t = text.trim();
        int scale = t.endsWith("k") ? 1_000 : t.endsWith("M") ? 1_000_000 : 1;
        try {
            long n = Long.parseLong(scale == 1 ? t : t.substring(0, t.length() - 1)) * scale;
            if (n < 1 || n > Integer.MAX_VALUE) {
                throw usage("'" + text + "' must be a count from 1 to " + Integer.MAX_VALUE);
            }
            return (int) n;
        } catch (NumberFormatException e) {
            throw usage("'" + text + "' is not a count (digits, optionally k or M)");
        }
    }

    private static BenchmarkException usage(String problem) {
        return new BenchmarkException(problem + "; options: --requests LIST --concurrency LIST | --points RxC,..."
                + " --output-len N --xmx 1g --server-threads N --sample-ms N --timeout-s N --report-dir DIR"
                + " --jar FILE --keep-records");
    }
}
