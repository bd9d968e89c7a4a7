package dev.servebench.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
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
import org.junit.jupiter.api.Test;

/**
 * The client's timestamps against the truth: the scripted server (same JVM, same clock) logs when it
 * flushed each chunk, so every measured arrival can be compared with its emission. 16 streams, TTFT 50 ms,
 * 10 ms gaps: the error of TTFT and of every ITL must stay within 1 ms at p99.
 */
class TimingAccuracyTest {

    private static final int STREAMS = 16;
    private static final int TOKENS = 20;

    @Test
    void ttftAndItlWithinOneMillisecondOfEmissionAtP99() throws Exception {
        Plan plan = Plan.builder().ttft(Duration.ofMillis(50)).gap(Duration.ofMillis(10)).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(plan))) {
            RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.of("m"), true, null);
            List<PreparedRequest> prepared = new ArrayList<>();
            List<PreparedRequest> warmup = new ArrayList<>();
            long[] offsets = new long[STREAMS];
            for (int i = 0; i < STREAMS; i++) {
                prepared.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, new int[] {1, 2, 3}, TOKENS)));
                warmup.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, new int[] {1, 2, 3}, 5)));
                offsets[i] = i * 10_000_000L; // staggered so that server arrival order is send order
            }
            // The client clock is System.nanoTime itself, so record time + origin = the server's time base.
            LoadPointResult result;
            try (StreamingClient client = new StreamingClient(new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS,
                    Optional.empty(), 1, Duration.ofSeconds(10)), System::nanoTime)) {
                LoadDriver driver = new LoadDriver(client);
                // Class loading and JIT on both sides would otherwise delay the first streams by tens of ms.
                for (int round = 0; round < 5; round++) {
                    driver.run(warmup, new long[STREAMS], 0, r -> { }, LoadProgress.NONE);
                }
                server.awaitEmissions(5 * STREAMS, Duration.ofSeconds(5));
                server.clearEmissions();
                result = driver.run(prepared, offsets, 0, r -> { }, LoadProgress.NONE);
            }
            List<RequestRecord> records = result.records();
            List<EmissionLog> emissions = new ArrayList<>(server.awaitEmissions(STREAMS, Duration.ofSeconds(5)));
            emissions.sort(Comparator.comparingLong(EmissionLog::arrivalNanos));
            List<RequestRecord> sent = new ArrayList<>(records);
            sent.sort(Comparator.comparingLong(RequestRecord::sentNanos));

            List<Double> ttftErrorsMs = new ArrayList<>();
            List<Double> ttftAbsErrorsMs = new ArrayList<>();
            List<Double> itlErrorsMs = new ArrayList<>();
            for (int s = 0; s < STREAMS; s++) {
                RequestRecord r = sent.get(s);
                EmissionLog e = emissions.get(s);
                assertThat(r.succeeded()).isTrue();
                // Pairing check: the server saw this request before the next one was sent (sends are 10 ms apart).
                assertThat(e.arrivalNanos() - result.originNanos() - r.sentNanos()).isBetween(0L, 9_000_000L);
                assertThat(r.chunks().size()).isEqualTo(e.chunkCount()).isEqualTo(TOKENS);
                // Delivery delay of the first token: measured TTFT minus true TTFT, both from the same send.
                long firstArrival = r.chunks().nanosAt(0);
                long firstEmission = e.emissionNanos(0) - result.originNanos();
                ttftErrorsMs.add((firstArrival - firstEmission) / 1e6);
                ttftAbsErrorsMs.add(Math.abs(firstArrival - firstEmission) / 1e6);
                for (int k = 1; k < TOKENS; k++) {
                    long measured = r.chunks().nanosAt(k) - r.chunks().nanosAt(k - 1);
                    long truth = e.emissionNanos(k) - e.emissionNanos(k - 1);
                    itlErrorsMs.add(Math.abs(measured - truth) / 1e6);
                }
            }
            double p99Ttft = NumpyStats.percentile(toArray(ttftAbsErrorsMs), 99);
            double p99Itl = NumpyStats.percentile(toArray(itlErrorsMs), 99);
            // The server stamps an emission after its flush returns, so a fast client may read slightly earlier.
            assertThat(ttftErrorsMs).allSatisfy(err -> assertThat(err).isGreaterThan(-0.5));
            System.out.printf("timing accuracy, %d streams: p99 |TTFT error| %.3f ms, p99 |ITL error| %.3f ms, max |ITL error| %.3f ms%n",
                    STREAMS, p99Ttft, p99Itl, NumpyStats.max(toArray(itlErrorsMs)));
            assertThat(p99Ttft).as("p99 TTFT error (ms)").isLessThan(1.0);
            assertThat(p99Itl).as("p99 ITL error (ms)").isLessThan(1.0);
        }
    }

    private static double[] toArray(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
