package dev.servebench.server.embedded.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.load.LoadDriver;
import dev.servebench.load.LoadProgress;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import dev.servebench.workload.PromptRequest;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** servebench's own load path (Netty client, chunk parsers, load driver) against the embedded server. */
class StreamingClientEndToEndTest {

    private static final int TOKENS = 12;

    @ParameterizedTest
    @EnumSource(value = Endpoint.class, names = {"COMPLETIONS", "CHAT_COMPLETIONS"})
    void everyRequestSucceedsWithOneTokenPerChunkAndTheServersUsage(Endpoint endpoint) throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(2, 256, Duration.ofMillis(2)))) {
            RequestBodies bodies = new RequestBodies(endpoint, Optional.of("scripted-model"), true, null);
            List<PreparedRequest> prepared = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                PromptRequest row = endpoint.acceptsTokenIds()
                        ? PromptRequest.ofTokenIds(i, new int[] {11, 12, 13}, TOKENS)
                        : PromptRequest.ofText(i, "hello there", 2, TOKENS);
                prepared.add(bodies.prepare(i, row));
            }
            List<RequestRecord> records;
            try (StreamingClient client = new StreamingClient(new ClientConfig(URI.create("http://127.0.0.1:" + fx.server.port()),
                    endpoint, Optional.empty(), 1, Duration.ofSeconds(5)), NanoClock.startingNow())) {
                records = new LoadDriver(client).run(prepared, new long[prepared.size()], 3, r -> { }, LoadProgress.NONE).records();
            }

            int promptTokens = endpoint.acceptsTokenIds() ? 3 + 1 : 4 + 1; // chat: "user: hello there\nassistant:" + BOS
            assertThat(records).hasSize(6).allSatisfy(r -> {
                assertThat(r.succeeded()).as("%s", r.outcome()).isTrue();
                assertThat(r.chunkOutputTokens()).isEqualTo(TOKENS);
                assertThat(r.chunks().tokenEventCount()).isEqualTo(TOKENS);
                assertThat(r.usage()).contains(new Usage(promptTokens, TOKENS));
            });
            assertThat(fx.engine.maxRunning.get()).isEqualTo(2);
        }
    }
}
