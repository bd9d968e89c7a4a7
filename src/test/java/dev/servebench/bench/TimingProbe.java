package dev.servebench.bench;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.load.LoadDriver;
import dev.servebench.load.LoadPointResult;
import dev.servebench.load.LoadProgress;
import dev.servebench.metric.NumpyStats;
import dev.servebench.record.RequestRecord;
import dev.servebench.testserver.EmissionLog;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.workload.PromptRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Measures the client's timestamps against the truth: the scripted server (same JVM, same clock) logs
 * when it flushed each chunk, so each measured arrival can be compared with its emission. Streams are
 * sent 10 ms apart so that server arrival order is send order, which pairs records with emission logs.
 */
public final class TimingProbe {

    /**
     * Errors in milliseconds: signed TTFT error (arrival of the first token minus its emission) and
     * absolute ITL error (measured gap minus emitted gap) of every gap, plus the pairing slack (server
     * arrival minus client send) of every stream.
     */
    public record Errors(double[] ttftMs, double[] itlMs, double[] sendToArrivalMs) {
        public double p99AbsTtftMs() {
            double[] abs = new double[ttftMs.length];
            for (int i = 0; i < abs.length; i++) {
                abs[i] = Math.abs(ttftMs[i]);
            }
            return NumpyStats.percentile(abs, 99);
        }

        public double p99ItlMs() {
            return NumpyStats.percentile(itlMs, 99);
        }

        public double maxItlMs() {
            return NumpyStats.max(itlMs);
        }
    }

    private TimingProbe() {}

    public static Errors measure(int streams, int tokens, Duration ttft, Duration gap) throws Exception {
        Plan plan = Plan.builder().ttft(ttft).gap(gap).build();
        // No busy-polling before due emissions: the truth is the logged emission time, not the schedule, and a
        // spinning server thread would take the CPU the client under test needs on a small machine.
        try (ScriptedServer server = ScriptedServer.start(Script.of(plan),
                dev.servebench.testserver.ServerOptions.defaults().withSpinNanos(0))) {
            RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.of("m"), true, null);
            List<PreparedRequest> prepared = new ArrayList<>();
            List<PreparedRequest> warmup = new ArrayList<>();
            long[] offsets = new long[streams];
            for (int i = 0; i < streams; i++) {
                prepared.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, new int[] {1, 2, 3}, tokens)));
                warmup.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, new int[] {1, 2, 3}, 5)));
                offsets[i] = i * 10_000_000L;
            }
            LoadPointResult result;
            // The client clock is System.nanoTime itself, so record time + origin = the server's time base.
            try (StreamingClient client = new StreamingClient(new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS,
                    Optional.empty(), 1, Duration.ofSeconds(10)), System::nanoTime)) {
                LoadDriver driver = new LoadDriver(client);
                // Class loading and JIT on both sides would otherwise delay the first streams by tens of ms.
                for (int round = 0; round < 5; round++) {
                    driver.run(warmup, new long[streams], 0, r -> { }, LoadProgress.NONE);
                }
                server.awaitEmissions(5 * streams, Duration.ofSeconds(10));
                server.clearEmissions();
                result = driver.run(prepared, offsets, 0, r -> { }, LoadProgress.NONE);
            }
            List<EmissionLog> emissions = new ArrayList<>(server.awaitEmissions(streams, Duration.ofSeconds(10)));
            emissions.sort(Comparator.comparingLong(EmissionLog::arrivalNanos));
            List<RequestRecord> sent = new ArrayList<>(result.records());
            sent.sort(Comparator.comparingLong(RequestRecord::sentNanos));
            double[] ttftErrors = new double[streams];
            double[] pairing = new double[streams];
            List<Double> itlErrors = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                RequestRecord r = sent.get(s);
                EmissionLog e = emissions.get(s);
                if (!r.succeeded() || r.chunks().size() != e.chunkCount()) {
                    throw new IllegalStateException("stream " + s + " did not complete as emitted: " + r.outcome());
                }
                pairing[s] = (e.arrivalNanos() - result.originNanos() - r.sentNanos()) / 1e6;
                ttftErrors[s] = (r.chunks().nanosAt(0) - (e.emissionNanos(0) - result.originNanos())) / 1e6;
                for (int k = 1; k < r.chunks().size(); k++) {
                    long measured = r.chunks().nanosAt(k) - r.chunks().nanosAt(k - 1);
                    long truth = e.emissionNanos(k) - e.emissionNanos(k - 1);
                    itlErrors.add(Math.abs(measured - truth) / 1e6);
                }
            }
            return new Errors(ttftErrors, itlErrors.stream().mapToDouble(Double::doubleValue).toArray(), pairing);
        }
    }
}
