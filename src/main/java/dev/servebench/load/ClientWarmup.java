package dev.servebench.load;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.StreamingClient;
import dev.servebench.record.RequestRecord;
import dev.servebench.workload.Tokenizer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Removes the client's cold start from the measurement. A fresh JVM runs the client's per-event code in the
 * interpreter for its first tens of thousands of events; without any warm-up the first wave's TTFT was
 * ~180 ms against a server answering in 50 ms (later waves 51-53 ms) at concurrency 16. Two steps, neither
 * touching the server under test:
 * {@link #warmHotPath} streams canned responses from a private loopback server through the very same
 * client, driver and record path until the JIT has compiled them; {@link #openConnections} opens the
 * connections a load point will use before its clock starts.
 */
public final class ClientWarmup {

    /**
     * 96,000 events: far past C2's compile thresholds (about 10,000 invocations or loop back-edges) for every
     * method of the per-event path; docs/client.md has the measured effect (cold-start benchmark).
     */
    static final int EXCHANGES = 1_500;
    static final int EVENTS_PER_EXCHANGE = 64;
    static final int CONCURRENCY = 8;

    /** What the hot-path warm-up did, for the summary. */
    public record HotPath(int exchanges, long events, long millis) {
        public String describe() {
            return "client hot path: " + exchanges + " canned streams (" + events
                    + " events) from a private loopback server, then the JIT queue drained, in " + millis + " ms";
        }
    }

    private ClientWarmup() {}

    /**
     * Streams canned responses for {@code like}'s endpoint through a client with {@code like}'s settings.
     *
     * @param alsoOnEachRecord run on every record as the measured path will (e.g. the records file's encoder)
     */
    public static HotPath warmHotPath(ClientConfig like, Consumer<RequestRecord> alsoOnEachRecord)
            throws InterruptedException, InternalRunError {
        return warmHotPath(like, alsoOnEachRecord, Optional.empty());
    }

    /**
     * As above; with a client tokenizer the canned streams also go through the text-keeping parsers and the
     * retokenizer, as the measured requests will.
     */
    public static HotPath warmHotPath(ClientConfig like, Consumer<RequestRecord> alsoOnEachRecord,
                                      Optional<? extends Tokenizer> retokenizer)
            throws InterruptedException, InternalRunError {
        long start = System.nanoTime();
        long events = 0;
        try (LoopbackStreamServer server = new LoopbackStreamServer(EVENTS_PER_EXCHANGE);
             StreamingClient client = new StreamingClient(new ClientConfig(server.baseUrl(), like.endpoint(),
                     Optional.empty(), like.ioThreads(), Duration.ofSeconds(30)), NanoClock.startingNow())) {
            byte[] body = "{\"warmup\":true}".getBytes(StandardCharsets.UTF_8);
            List<PreparedRequest> requests = new ArrayList<>(EXCHANGES);
            for (int i = 0; i < EXCHANGES; i++) {
                requests.add(new PreparedRequest(i, body, 3, EVENTS_PER_EXCHANGE));
            }
            try (LoadPointResult result = new LoadDriver(client, retokenizer).run(requests, new long[EXCHANGES], CONCURRENCY,
                    alsoOnEachRecord, LoadProgress.NONE)) {
                events = result.store().eventCount();
            }
        }
        settle();
        return new HotPath(EXCHANGES, events, (System.nanoTime() - start) / 1_000_000);
    }

    /**
     * Lets the JIT finish what the warm-up queued, so that a background compilation does not compete with the
     * first measured wave for the CPU (on 2 cores it showed up as ITL p99 error). No System.gc() here: a full
     * collection shrinks G1's heap, and regrowing it cost the next load point's first wave a string of
     * young pauses (measured at concurrency 8,000).
     */
    private static void settle() throws InterruptedException {
        java.lang.management.CompilationMXBean jit = java.lang.management.ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            Thread.sleep(SETTLE_QUIET_MILLIS);
            return;
        }
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(SETTLE_MAX_MILLIS);
        long last = jit.getTotalCompilationTime();
        while (System.nanoTime() < deadline) {
            Thread.sleep(SETTLE_QUIET_MILLIS);
            long now = jit.getTotalCompilationTime();
            if (now == last) {
                return;
            }
            last = now;
        }
    }

    /** The JIT counts as done once its compilation time stood still this long. */
    private static final long SETTLE_QUIET_MILLIS = 200;
    private static final long SETTLE_MAX_MILLIS = 5_000;

    /**
     * What was done before a load point's clock started, after the hot path.
     *
     * @param connectionsWanted the point's concurrency ({@link #connectionsFor})
     * @param connectionsOpened connections opened now (0 when the server refused them all: the measured
     *                          requests then report the connect failure, each with its reason)
     * @param serverWarmup      the records of the server warm-up requests ({@code --warmup-requests})
     */
    public record BeforePoint(int connectionsWanted, int connectionsOpened, List<RequestRecord> serverWarmup) {
        public BeforePoint {
            serverWarmup = List.copyOf(serverWarmup);
        }

        /** One line per step, for the summary's {@code warmed_before_start}. */
        public List<String> describe() {
            List<String> lines = new ArrayList<>();
            lines.add("connections: " + connectionsOpened + " opened before the clock started (" + connectionsWanted
                    + " wanted: the point's concurrency)");
            if (!serverWarmup.isEmpty()) {
                lines.add("server: " + serverWarmup.size() + " warm-up request(s) (--warmup-requests)");
            }
            return lines;
        }
    }

    /**
     * Opens the connections a load point will use, then sends the server its warm-up requests at the point's
     * concurrency (unmeasured).
     */
    public static BeforePoint beforePoint(LoadDriver driver, int maxConcurrency, int requests,
                                          List<PreparedRequest> serverWarmup) throws InterruptedException, InternalRunError {
        int wanted = connectionsFor(maxConcurrency, requests);
        int opened = openConnections(driver.client(), wanted);
        if (serverWarmup.isEmpty()) {
            return new BeforePoint(wanted, opened, List.of());
        }
        try (LoadPointResult warm = driver.run(serverWarmup, new long[serverWarmup.size()], maxConcurrency,
                record -> { }, LoadProgress.NONE)) {
            return new BeforePoint(wanted, opened, warm.records());
        }
    }

    /**
     * How many connections to open before a load point: its concurrency cap, or every request when nothing
     * caps it, never more than the requests, and at most {@value #MAX_PREOPENED} (an uncapped million-request
     * point must not try to open a million sockets; beyond this the rest open as requests need them).
     */
    public static int connectionsFor(int maxConcurrency, int requests) {
        int wanted = maxConcurrency == 0 ? requests : Math.min(maxConcurrency, requests);
        return Math.min(wanted, MAX_PREOPENED);
    }

    static final int MAX_PREOPENED = 10_000;

    /**
     * Opens up to {@code connections} keep-alive connections to the server under test (no request is sent
     * on them), so the load point's first wave finds them ready. Returns how many were opened now.
     */
    public static int openConnections(StreamingClient client, int connections) throws InterruptedException {
        try {
            return client.openConnections(connections, 30_000);
        } catch (java.io.IOException e) {
            return 0; // the measured requests will report the connect failure, each with its reason
        }
    }
}
