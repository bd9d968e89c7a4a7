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
}
