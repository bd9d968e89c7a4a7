package dev.servebench.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ClientWarmupTest {

    @Test
    void connectionsFollowTheCapAndNeverExceedTheRequestsOrTheCeiling() {
        assertThat(ClientWarmup.connectionsFor(256, 100_000)).isEqualTo(256);
        assertThat(ClientWarmup.connectionsFor(256, 100)).isEqualTo(100);
        assertThat(ClientWarmup.connectionsFor(0, 500)).isEqualTo(500);
        assertThat(ClientWarmup.connectionsFor(0, 1_000_000)).isEqualTo(ClientWarmup.MAX_PREOPENED);
        assertThat(ClientWarmup.connectionsFor(20_000, 1_000_000)).isEqualTo(ClientWarmup.MAX_PREOPENED);
    }

    @Test
    void everyEndpointsCannedStreamRunsThroughTheRealClientPath() throws Exception {
        for (Endpoint endpoint : Endpoint.values()) {
            AtomicLong records = new AtomicLong();
            ClientConfig like = new ClientConfig(URI.create("http://127.0.0.1:9"), endpoint, Optional.empty(), 1,
                    Duration.ofSeconds(10));
            ClientWarmup.HotPath hot = ClientWarmup.warmHotPath(like, record -> {
                assertThat(record.succeeded()).as("%s: %s", endpoint, record.outcome()).isTrue();
                assertThat(record.chunkOutputTokens()).isEqualTo(ClientWarmup.EVENTS_PER_EXCHANGE);
                records.incrementAndGet();
            });
            assertThat(records.get()).isEqualTo(ClientWarmup.EXCHANGES);
            assertThat(hot.events()).isEqualTo((long) ClientWarmup.EXCHANGES * ClientWarmup.EVENTS_PER_EXCHANGE);
            assertThat(hot.describe()).contains("1500 canned streams (96000 events)");
        }
    }

    @Test
    void beforeAPointTheConnectionsOpenAndTheServerWarmUpIsSentUnmeasured() throws Exception {
        try (dev.servebench.testserver.ScriptedServer server = dev.servebench.testserver.ScriptedServer.start(
                dev.servebench.testserver.Script.of(dev.servebench.testserver.Plan.fullSpeed()));
             dev.servebench.client.StreamingClient client = new dev.servebench.client.StreamingClient(
                     new ClientConfig(server.baseUri(), Endpoint.COMPLETIONS, Optional.empty(), 1, Duration.ofSeconds(10)),
                     dev.servebench.client.NanoClock.startingNow())) {
            dev.servebench.client.RequestBodies bodies = new dev.servebench.client.RequestBodies(Endpoint.COMPLETIONS,
                    Optional.of("m"), true, null);
            var warmup = java.util.List.of(bodies.prepare(0,
                    dev.servebench.workload.PromptRequest.ofTokenIds(0, new int[] {11, 12}, 4)));
            ClientWarmup.BeforePoint before = ClientWarmup.beforePoint(new LoadDriver(client), 4, 100, warmup);
            assertThat(before.connectionsWanted()).isEqualTo(4);
            assertThat(before.connectionsOpened()).isEqualTo(4);
            assertThat(before.serverWarmup()).hasSize(1).allSatisfy(r -> assertThat(r.succeeded()).isTrue());
            assertThat(before.describe()).containsExactly(
                    "connections: 4 opened before the clock started (4 wanted: the point's concurrency)",
                    "server: 1 warm-up request(s) (--warmup-requests)");
            assertThat(client.connectionsOpened()).isEqualTo(4);
        }
    }
}
