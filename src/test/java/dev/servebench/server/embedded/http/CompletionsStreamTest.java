package dev.servebench.server.embedded.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class CompletionsStreamTest {

    private static ServerFixture fx;

    @BeforeAll
    static void start() {
        fx = new ServerFixture(new ScriptedEngine(4, 256, Duration.ofMillis(2), 5));
    }

    @AfterAll
    static void stop() {
        fx.close();
    }

    @Test
    void streamsOneChunkPerTokenThenUsageThenDone() throws Exception {
        HttpResponse<String> res = fx.post("/v1/completions", """
                {"model":"scripted-model","prompt":"one two three","max_tokens":3,"stream":true,
                 "stream_options":{"include_usage":true},"ignore_eos":true,"temperature":0,"seed":7,"top_p":0.5}""");

        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("content-type")).hasValueSatisfying(ct -> assertThat(ct).startsWith("text/event-stream"));
        List<String> events = ServerFixture.events(res.body());
        assertThat(events).hasSize(5);
        String id = Json.MAPPER.readTree(events.get(0)).path("id").asText();
        assertThat(id).matches("cmpl-[0-9a-f]{32}");
        String head = Pattern.quote("{\"id\":\"" + id + "\",\"object\":\"text_completion\",\"created\":") + "\\d+"
                + Pattern.quote(",\"model\":\"scripted-model\",");
        assertThat(events.get(0)).matches(head + Pattern.quote(
                "\"choices\":[{\"index\":0,\"text\":\" t0\",\"logprobs\":null,\"finish_reason\":null}]}"));
        assertThat(events.get(1)).matches(head + Pattern.quote(
                "\"choices\":[{\"index\":0,\"text\":\" t1\",\"logprobs\":null,\"finish_reason\":null}]}"));
        assertThat(events.get(2)).matches(head + Pattern.quote(
                "\"choices\":[{\"index\":0,\"text\":\" t2\",\"logprobs\":null,\"finish_reason\":\"length\"}]}"));
        // prompt_tokens = 3 words + the BOS the engine adds
        assertThat(events.get(3)).matches(head + Pattern.quote(
                "\"choices\":[],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":3,\"total_tokens\":7}}"));
        assertThat(events.get(4)).isEqualTo("[DONE]");
        assertThat(res.body()).endsWith("data: [DONE]\n\n");
    }

    @Test
    void withoutIncludeUsageThereIsNoUsageChunk() {
        HttpResponse<String> res = fx.post("/v1/completions", """
                {"prompt":[5,6,7,8],"max_tokens":2,"stream":true}""");

        List<String> events = ServerFixture.events(res.body());
        assertThat(events).hasSize(3);
        assertThat(events.get(1)).contains("\"text\":\" t1\"", "\"finish_reason\":\"length\"");
        assertThat(events.get(2)).isEqualTo("[DONE]");
    }

    @Test
    void eosEndsWithAnEmptyStopChunk() throws Exception {
        HttpResponse<String> res = fx.post("/v1/completions", """
                {"prompt":"hi","max_tokens":50,"stream":true,"stream_options":{"include_usage":true}}""");

        List<String> events = ServerFixture.events(res.body());
        // the fake stops after 5 tokens: 5 token chunks, the stop chunk, usage, [DONE]
        assertThat(events).hasSize(8);
        assertThat(events.subList(0, 5)).allSatisfy(e -> assertThat(e).contains("\"finish_reason\":null"));
        JsonNode stop = Json.MAPPER.readTree(events.get(5)).path("choices").get(0);
        assertThat(stop.path("text").asText()).isEmpty();
        assertThat(stop.path("finish_reason").asText()).isEqualTo("stop");
        assertThat(Json.MAPPER.readTree(events.get(6)).path("usage").path("completion_tokens").asInt()).isEqualTo(5);
    }

    @Test
    void minTokensDefersEos() {
        HttpResponse<String> res = fx.post("/v1/completions", """
                {"prompt":"hi","max_tokens":50,"min_tokens":8,"stream":true}""");

        assertThat(ServerFixture.events(res.body())).hasSize(8 + 2);
    }

    @Test
    void chunksAreFlushedAsTokensArrive() throws Exception {
        try (ServerFixture slow = new ServerFixture(new ScriptedEngine(1, 256, Duration.ofMillis(40)))) {
            var request = java.net.http.HttpRequest.newBuilder(slow.uri("/v1/completions"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"prompt\":\"a\",\"max_tokens\":6,\"stream\":true}"))
                    .build();
            List<Long> arrivals = new java.util.ArrayList<>();
            slow.http.send(request, HttpResponse.BodyHandlers.ofLines()).body()
                    .filter(line -> line.startsWith("data: {"))
                    .forEach(line -> arrivals.add(System.nanoTime()));

            assertThat(arrivals).hasSize(6);
            // 5 gaps of ~40 ms: buffered output would deliver them together
            assertThat(Duration.ofNanos(arrivals.getLast() - arrivals.getFirst())).isGreaterThan(Duration.ofMillis(120));
        }
    }

    @Test
    void nonStreamingAnswersOneBody() throws Exception {
        HttpResponse<String> res = fx.post("/v1/completions", """
                {"prompt":"a b","max_tokens":4,"ignore_eos":true}""");

        assertThat(res.statusCode()).isEqualTo(200);
        assertThat(res.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode body = Json.MAPPER.readTree(res.body());
        assertThat(body.path("object").asText()).isEqualTo("text_completion");
        assertThat(body.path("choices").get(0).path("text").asText()).isEqualTo(" t0 t1 t2 t3");
        assertThat(body.path("choices").get(0).path("finish_reason").asText()).isEqualTo("length");
        assertThat(body.path("usage").toString()).isEqualTo("{\"prompt_tokens\":3,\"completion_tokens\":4,\"total_tokens\":7}");
    }

    @Test
    void defaultMaxTokensIs16() throws Exception {
        HttpResponse<String> res = fx.post("/v1/completions", "{\"prompt\":\"x\",\"ignore_eos\":true}");

        assertThat(Json.MAPPER.readTree(res.body()).path("usage").path("completion_tokens").asInt()).isEqualTo(16);
    }

    @Test
    void sinkCallsComeFromTheEnginesOneThread() {
        fx.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":3}");

        assertThat(fx.engine.sinkThreads).extracting(Thread::getName).containsOnly("scripted-dispatcher");
    }
}
