package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class FullSpeedTest {

    private static final String COMPLETIONS = "{\"prompt\":\"abc\",\"max_tokens\":5,\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true}}";

    private record Case(String path, String body, Plan.Builder plan) {
    }

    private static final List<Case> CASES = List.of(
            new Case("/v1/completions", COMPLETIONS, Plan.builder()),
            new Case("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                    + "\"max_tokens\":7,\"stream\":true,\"stream_options\":{\"include_usage\":true}}",
                    Plan.builder().tokensPerChunk(3)),
            new Case("/generate", "{\"text\":\"hello\",\"sampling_params\":{\"max_new_tokens\":6},\"stream\":true}",
                    Plan.builder().tokensPerChunk(2)),
            new Case("/v1/completions", "{\"prompt\":\"abc\",\"max_tokens\":4}", Plan.builder()),
            new Case("/v1/chat/completions", "{\"messages\":[],\"max_tokens\":6,\"stream\":true}",
                    Plan.builder().crlf(true).pingEvery(2).emptyEvery(3).usage(Plan.UsageMode.ALWAYS)),
            new Case("/v1/completions", COMPLETIONS, Plan.builder().fault(Fault.invalidJsonAt(2))),
            new Case("/v1/completions", COMPLETIONS, Plan.builder().fault(Fault.inStreamError(3, "oom"))),
            new Case("/v1/completions", COMPLETIONS, Plan.builder().fault(Fault.noDone())));

    @Test
    void fullSpeedBytesEqualPacedBytes() throws Exception {
        for (Case c : CASES) {
            Plan fast = c.plan().build();
            Plan paced = fast.toBuilder().ttft(Duration.ofNanos(100_000)).gap(Duration.ofNanos(10_000)).build();
            assertThat(fast.isFullSpeed()).isTrue();
            assertThat(paced.isFullSpeed()).isFalse();
            byte[] cachedFirst;
            byte[] cachedSecond;
            try (ScriptedServer server = ScriptedServer.start(Script.of(fast));
                 RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                raw.send(RawHttpClient.post(c.path(), c.body()));
                cachedFirst = raw.read().wire();
                raw.send(RawHttpClient.post(c.path(), c.body()));
                cachedSecond = raw.read().wire();
                assertThat(server.awaitEmissions(2, Duration.ofSeconds(2))).allMatch(EmissionLog::cached);
            }
            byte[] pacedBytes;
            try (ScriptedServer server = ScriptedServer.start(Script.of(paced));
                 RawHttpClient raw = new RawHttpClient(server.port(), 2000)) {
                raw.send(RawHttpClient.post(c.path(), c.body()));
                pacedBytes = raw.read().wire();
                assertThat(server.awaitEmissions(1, Duration.ofSeconds(2))).noneMatch(EmissionLog::cached);
            }
            assertThat(new String(cachedFirst)).as(c.toString()).isEqualTo(new String(pacedBytes));
            assertThat(cachedSecond).as("cache hit for " + c).isEqualTo(cachedFirst);
        }
    }

    @Test
    void manyPipelinedLongStreamsWithoutRecording() throws Exception {
        int requests = 200;
        try (ScriptedServer server = ScriptedServer.start(Script.fullSpeed());
             RawHttpClient raw = new RawHttpClient(server.port(), 5000)) {
            byte[] one = RawHttpClient.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":1024,"
                    + "\"stream\":true,\"stream_options\":{\"include_usage\":true}}");
            raw.send(one);
            RawHttpClient.Response first = raw.read();
            List<String> data = Sse.data(first.bodyText());
            assertThat(data).hasSize(1026);
            assertThat(Sse.parse(data.get(1024)).at("/usage/completion_tokens").asInt()).isEqualTo(1024);

            byte[] batch = new byte[one.length * requests];
            for (int i = 0; i < requests; i++) {
                System.arraycopy(one, 0, batch, i * one.length, one.length);
            }
            long t0 = System.nanoTime();
            raw.send(batch);
            for (int i = 0; i < requests; i++) {
                assertThat(raw.read().wire()).isEqualTo(first.wire());
            }
            long elapsed = System.nanoTime() - t0;
            // ~200k SSE events; generous bound, the point is that nothing is rendered per request.
            assertThat(Duration.ofNanos(elapsed)).isLessThan(Duration.ofSeconds(5));
            assertThat(server.requestCount()).isEqualTo(requests + 1);
            assertThat(server.emissions()).isEmpty();
        }
    }
}
