package dev.servebench.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.record.RequestRecord;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.workload.PromptRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class LoadDriverTest {

    private static ScriptedServer server;
    private static StreamingClient client;

    @BeforeAll
    static void start() {
        server = ScriptedServer.start(Script.of(Plan.builder().ttft(Duration.ofMillis(10)).gap(Duration.ofMillis(2)).build()));
        client = new StreamingClient(new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS, Optional.empty(), 1,
                Duration.ofSeconds(10)), NanoClock.startingNow());
    }

    @AfterAll
    static void stop() {
        client.close();
        server.close();
    }

    private static List<PreparedRequest> requests(int n) {
        RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.of("m"), true, null);
        List<PreparedRequest> list = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            list.add(bodies.prepare(i, PromptRequest.ofTokenIds(i, new int[] {5, 6}, 8)));
        }
        return list;
    }

    /** Largest number of [sent, end) intervals that overlap. */
    private static int peakInFlight(List<RequestRecord> records) {
        int peak = 0;
        for (RequestRecord a : records) {
            int overlapping = 0;
            for (RequestRecord b : records) {
                if (b.sentNanos() <= a.sentNanos() && a.sentNanos() < b.endNanos()) {
                    overlapping++;
                }
            }
            peak = Math.max(peak, overlapping);
        }
        return peak;
    }

    @Test
    void closedLoopNeverExceedsTheCapAndRecordsTheWaitAsQueueTime() throws Exception {
        ConcurrentLinkedQueue<RequestRecord> streamed = new ConcurrentLinkedQueue<>();
        LoadPointResult result = new LoadDriver(client).run(requests(24), new long[24], 4, streamed::add, LoadProgress.NONE);
        List<RequestRecord> records = result.records();
        assertThat(records).hasSize(24).allSatisfy(r -> assertThat(r.succeeded()).isTrue());
        assertThat(records).extracting(RequestRecord::index).containsExactlyElementsOf(
                java.util.stream.IntStream.range(0, 24).boxed().toList());
        assertThat(streamed).hasSize(24);
        assertThat(peakInFlight(records)).isEqualTo(4);
        // Every request was due at 0; the later ones waited for a slot, which is queue time, not client lag.
        RequestRecord last = records.get(23);
        assertThat(last.queueNanos()).isGreaterThan(Duration.ofMillis(50).toNanos());
        assertThat(last.readyNanos()).isGreaterThan(last.intendedNanos());
        assertThat(last.dispatchLagNanos()).isLessThan(last.queueNanos() / 2);
        assertThat(result.durationNanos()).isEqualTo(records.stream().mapToLong(RequestRecord::endNanos).max().orElseThrow());
    }

    @Test
    void openLoopSendsAtTheIntendedTimes() throws Exception {
        long[] offsets = new long[10];
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = i * 5_000_000L;
        }
        List<RequestRecord> records = new LoadDriver(client).run(requests(10), offsets, 0, r -> { }, LoadProgress.NONE)
                .records();
        for (RequestRecord r : records) {
            assertThat(r.intendedNanos()).isEqualTo(offsets[r.index()]);
            assertThat(r.sentNanos()).isGreaterThanOrEqualTo(r.intendedNanos());
            // Without a cap there is no slot to wait for: all queue time is the client's own lateness.
            assertThat(r.readyNanos()).isEqualTo(r.intendedNanos());
            assertThat(r.queueNanos()).isEqualTo(r.dispatchLagNanos());
        }
        // Requests 0..2 overlap in time (each takes >= 24 ms, they start 5 ms apart): open loop does not wait.
        assertThat(records.get(1).sentNanos()).isLessThan(records.get(0).endNanos());
    }
}
