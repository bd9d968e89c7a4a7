package dev.servebench.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.client.Endpoint;
import dev.servebench.client.PreparedRequest;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cold-start timing benchmark's {@code plain} mode: the measured requests through {@link PlainSocketReader}s,
 * one per platform thread, in a closed loop (each thread sends the next unsent request as soon as its previous
 * answer ended). Warmed as the {@code warmed} mode is: the reader's hot path runs on canned full-speed streams
 * from a private in-JVM server until the JIT has compiled it, then each connection to the server under test
 * carries a few unmeasured requests.
 */
final class PlainSocketRun {

    /** As {@code ClientWarmup}'s hot path: 1,500 streams of 64 events, far past C2's compile thresholds. */
    private static final int HOT_PATH_EXCHANGES = 1_500;
    private static final int SERVER_WARMUP_PER_CONNECTION = 2;
    private static final String HOST = "127.0.0.1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private PlainSocketRun() {}

    static ClientTimes measure(int port, List<PreparedRequest> measured, PreparedRequest serverWarmup, int concurrency)
            throws Exception {
        String path = Endpoint.COMPLETIONS.path();
        ThreadPoolExecutor threads = new ThreadPoolExecutor(concurrency, concurrency, 0, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>());
        threads.prestartAllCoreThreads();
        List<PlainSocketReader> readers = new ArrayList<>();
        try {
            long hotPathStart = System.nanoTime();
            try (ScriptedServer canned = ScriptedServer.start(Script.builder().recordEmissions(false).build())) {
                List<byte[]> cannedRequests = measured.stream()
                        .map(r -> PlainSocketReader.request(HOST, canned.port(), path, r.body())).toList();
                AtomicInteger next = new AtomicInteger();
                onEach(threads, concurrency, t -> {
                    try (PlainSocketReader reader = new PlainSocketReader(HOST, canned.port())) {
                        for (int i; (i = next.getAndIncrement()) < HOT_PATH_EXCHANGES; ) {
                            reader.exchange(cannedRequests.get(i % cannedRequests.size()));
                        }
                    }
                });
            }
            awaitQuietJit();
            long hotPathMillis = (System.nanoTime() - hotPathStart) / 1_000_000;

            byte[] warmup = PlainSocketReader.request(HOST, port, path, serverWarmup.body());
            for (int t = 0; t < concurrency; t++) {
                readers.add(new PlainSocketReader(HOST, port));
            }
            onEach(threads, concurrency, t -> {
                for (int k = 0; k < SERVER_WARMUP_PER_CONNECTION; k++) {
                    readers.get(t).exchange(warmup);
                }
            });

            List<byte[]> requests = measured.stream()
                    .map(r -> PlainSocketReader.request(HOST, port, path, r.body())).toList();
            PlainSocketReader.Exchange[] answers = new PlainSocketReader.Exchange[requests.size()];
            AtomicInteger next = new AtomicInteger();
            GcWindow gcBefore = GcWindow.now();
            long origin = System.nanoTime();
            onEach(threads, concurrency, t -> {
                for (int i; (i = next.getAndIncrement()) < answers.length; ) {
                    answers[i] = readers.get(t).exchange(requests.get(i));
                }
            });
            GcWindow measuredGc = GcWindow.now().since(gcBefore);
            List<ClientTimes.Request> timed = new ArrayList<>();
            for (int i = 0; i < answers.length; i++) {
                timed.add(timed(measured.get(i), answers[i], origin));
            }
            return new ClientTimes(origin, hotPathMillis, measuredGc, timed);
        } finally {
            for (PlainSocketReader reader : readers) {
                reader.close();
            }
            threads.shutdownNow();
        }
    }

    /** Only events carrying a token count, as the client counts them. */
    private static ClientTimes.Request timed(PreparedRequest request,
                                                               PlainSocketReader.Exchange answer, long origin)
            throws IOException {
        List<Long> tokenNanos = new ArrayList<>();
        for (ChunkedSseParser.Event event : answer.events()) {
            if (carriesToken(event.data())) {
                tokenNanos.add(event.receivedNanos() - origin);
            }
        }
        if (tokenNanos.isEmpty()) {
            throw new IOException("request " + request.index() + " got no token (" + answer.events().size()
                    + " events)");
        }
        long sent = answer.sentNanos() - origin;
        return new ClientTimes.Request(request.promptLen(), sent,
                (tokenNanos.getFirst() - sent) / 1e6, tokenNanos.stream().mapToLong(Long::longValue).toArray());
    }

    /** Whether a completions stream event's data counts as a token: any choice with a non-empty text. */
    static boolean carriesToken(String data) throws IOException {
        if (data.equals("[DONE]")) {
            return false;
        }
        for (JsonNode choice : JSON.readTree(data).path("choices")) {
            if (!choice.path("text").asText("").isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private interface PerThread {
        void run(int thread) throws Exception;
    }

    /** Runs {@code work} once on each of the pool's threads (with its index) and waits for all; rethrows a failure. */
    private static void onEach(ThreadPoolExecutor threads, int count, PerThread work) throws Exception {
        List<Future<Void>> running = new ArrayList<>();
        for (int t = 0; t < count; t++) {
            int thread = t;
            running.add(threads.submit((Callable<Void>) () -> {
                work.run(thread);
                return null;
            }));
        }
        for (Future<Void> future : running) {
            try {
                future.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof Exception cause ? cause : e;
            }
        }
    }

    /**
     * Waits until the JIT's total compilation time stood still for 200 ms (at most 5 s), as
     * {@code ClientWarmup} does after the client's hot path, so that no compilation competes with the first
     * measured wave.
     */
    private static void awaitQuietJit() throws InterruptedException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        if (jit == null || !jit.isCompilationTimeMonitoringSupported()) {
            Thread.sleep(200);
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (long last = -1, now; System.nanoTime() < deadline; last = now) {
            Thread.sleep(200);
            now = jit.getTotalCompilationTime();
            if (now == last) {
                return;
            }
        }
    }
}
