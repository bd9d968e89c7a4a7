package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.abort;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Checks the server's own scheduling, using only the emission times it recorded. The client is deliberately
 * light (plain sockets, blocking reads) and the JIT is warmed first. On a shared 2-core machine other
 * processes can still take the CPU for milliseconds, and with 16 streams due together one such stall spoils
 * dozens of gaps at once. So each attempt runs a probe thread that measures how late its own short sleeps
 * wake; the test passes on the first attempt within bounds, fails if an attempt misses while the probe saw
 * no stall (the server's fault), and is aborted as inconclusive if every miss coincided with a stall.
 */
class TimingTest {

    private static final long TTFT = Duration.ofMillis(50).toNanos();
    private static final long GAP = Duration.ofMillis(10).toNanos();
    private static final long TOLERANCE = Duration.ofMillis(1).toNanos();
    private static final int STREAMS = 16;
    private static final int TOKENS = 21;
    private static final int ATTEMPTS = 5;

    /** Errors of one attempt and the worst oversleep the probe saw meanwhile, in nanoseconds. */
    private record Attempt(long gapP99, long latenessP99, long ttftP50, long probeWorst, String detail) {
        boolean passed() {
            return gapP99 <= TOLERANCE && latenessP99 <= TOLERANCE && ttftP50 <= TOLERANCE;
        }

        boolean machineStalled() {
            return probeWorst > TOLERANCE;
        }
    }

    @Test
    void sixteenConcurrentStreamsKeepTheirSchedule() throws Exception {
        Script script = Script.builder()
                .defaultPlan(Plan.builder().ttft(Duration.ofNanos(TTFT)).gap(Duration.ofNanos(GAP)).build())
                .named("warm", Plan.builder().ttft(Duration.ofNanos(1)).build())
                .build();
        try (ScriptedServer server = ScriptedServer.start(script);
             ExecutorService readers = Executors.newFixedThreadPool(STREAMS)) {
            warmUp(server);
            List<Attempt> attempts = new ArrayList<>();
            for (int i = 0; i < ATTEMPTS; i++) {
                server.clearEmissions();
                Attempt attempt = measure(server, readers);
                attempts.add(attempt);
                if (attempt.passed()) {
                    return;
                }
                if (!attempt.machineStalled()) {
                    fail("missed the 1 ms bound although the machine did not stall: " + attempt);
                }
            }
            abort("every attempt coincided with a CPU stall of the machine, inconclusive: " + attempts);
        }
    }

    private static Attempt measure(ScriptedServer server, ExecutorService readers) throws Exception {
        StallProbe probe = new StallProbe();
        try {
            runStreams(server, readers);
        } finally {
            probe.stop();
        }
        List<EmissionLog> logs = server.awaitEmissions(STREAMS, Duration.ofSeconds(5));
        List<Long> gapErrors = new ArrayList<>();
        List<Long> ttftErrors = new ArrayList<>();
        List<Long> lateness = new ArrayList<>();
        for (EmissionLog log : logs) {
            assertThat(log.outcome()).isEqualTo(EmissionLog.Outcome.COMPLETED);
            assertThat(log.chunkCount()).isEqualTo(TOKENS);
            assertThat(log.cached()).isFalse();
            assertThat(log.startNanos()).isGreaterThanOrEqualTo(log.arrivalNanos());
            for (long gap : log.gapsNanos()) {
                gapErrors.add(Math.abs(gap - GAP));
            }
            ttftErrors.add(log.emissionNanos(0) - log.startNanos() - TTFT);
            for (int i = 0; i < log.chunkCount(); i++) {
                // Late is possible under load; early would be a scheduling bug.
                assertThat(log.latenessNanos(i)).as("chunk %d of %s", i, log).isNotNegative();
                lateness.add(log.latenessNanos(i));
            }
        }
        assertThat(gapErrors).hasSize(STREAMS * (TOKENS - 1));
        return new Attempt(percentile(gapErrors, 0.99), percentile(lateness, 0.99), percentile(ttftErrors, 0.5),
                probe.worstNanos(), "gaps " + summary(gapErrors) + ", lateness " + summary(lateness) + ", ttft " + summary(ttftErrors));
    }

    /** Sends all requests back to back, so the streams share one schedule, and reads them in parallel. */
    private static void runStreams(ScriptedServer server, ExecutorService readers) throws Exception {
        byte[] completions = RawHttpClient.post("/v1/completions",
                "{\"prompt\":\"x\",\"max_tokens\":" + TOKENS + ",\"stream\":true}");
        byte[] chat = RawHttpClient.post("/v1/chat/completions",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":" + TOKENS + ",\"stream\":true}");
        List<RawHttpClient> clients = new ArrayList<>();
        try {
            for (int i = 0; i < STREAMS; i++) {
                clients.add(new RawHttpClient(server.port(), 5000));
            }
            for (int i = 0; i < STREAMS; i++) {
                clients.get(i).send(i % 2 == 0 ? completions : chat);
            }
            List<Future<RawHttpClient.Response>> responses = new ArrayList<>();
            for (RawHttpClient c : clients) {
                responses.add(readers.submit(c::read));
            }
            for (Future<RawHttpClient.Response> r : responses) {
                assertThat(r.get().status()).isEqualTo(200);
            }
        } finally {
            for (RawHttpClient c : clients) {
                c.close();
            }
        }
    }

    /** Runs the paced code path a few thousand times so compilation does not land in the measured streams. */
    private static void warmUp(ScriptedServer server) throws Exception {
        try (RawHttpClient warm = new RawHttpClient(server.port(), 5000)) {
            for (int i = 0; i < 20; i++) {
                warm.send(RawHttpClient.post(i % 2 == 0 ? "/v1/completions" : "/v1/chat/completions",
                        "{\"prompt\":\"x\",\"messages\":[],\"max_tokens\":300,\"stream\":true}", "x-script: warm"));
                assertThat(warm.read().status()).isEqualTo(200);
            }
        }
        server.awaitEmissions(20, Duration.ofSeconds(5));
    }

    /** Sleeps 1 ms at a time and remembers the worst oversleep: how long the CPU was out of reach. */
    private static final class StallProbe {
        private final Thread thread;
        private volatile boolean running = true;
        private volatile long worst;

        StallProbe() {
            thread = Thread.ofPlatform().daemon().start(() -> {
                while (running) {
                    long t = System.nanoTime();
                    LockSupport.parkNanos(1_000_000);
                    worst = Math.max(worst, System.nanoTime() - t - 1_000_000);
                }
            });
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        long worstNanos() {
            return worst;
        }
    }

    private static long percentile(List<Long> values, double p) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return sorted[(int) Math.ceil(sorted.length * p) - 1];
    }

    private static String summary(List<Long> values) {
        long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
        return "p50=" + sorted[sorted.length / 2] + "ns worst="
                + Arrays.toString(Arrays.copyOfRange(sorted, Math.max(0, sorted.length - 4), sorted.length));
    }
}
