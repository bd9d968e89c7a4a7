package dev.servebench.testserver;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StreamFormatTest {

    private static ScriptedServer server;

    @BeforeAll
    static void start() {
        server = ScriptedServer.start(Script.builder()
                .named("chunk4", Plan.builder().tokensPerChunk(4).build())
                .named("always-usage", Plan.builder().usage(Plan.UsageMode.ALWAYS).build())
                .named("never-usage", Plan.builder().usage(Plan.UsageMode.NEVER).build())
                .build());
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void completionsStreamIsByteExact() throws Exception {
        HttpResponse<String> r = Http.post(server, "/v1/completions",
                "{\"model\":\"m\",\"prompt\":\"0123456789\",\"max_tokens\":3,\"stream\":true,"
                        + "\"stream_options\":{\"include_usage\":true}}");
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("content-type")).hasValue("text/event-stream; charset=utf-8");
        assertThat(r.headers().firstValue("transfer-encoding")).hasValue("chunked");
        String head = "{\"id\":\"cmpl-0\",\"object\":\"text_completion\",\"created\":1700000000,"
                + "\"model\":\"servebench-model\",";
        assertThat(r.body().replaceAll("cmpl-\\d+", "cmpl-0")).isEqualTo(
                "data: " + head + "\"choices\":[{\"index\":0,\"text\":\" t0\",\"logprobs\":null,\"finish_reason\":null}]}\n\n"
                + "data: " + head + "\"choices\":[{\"index\":0,\"text\":\" t1\",\"logprobs\":null,\"finish_reason\":null}]}\n\n"
                + "data: " + head + "\"choices\":[{\"index\":0,\"text\":\" t2\",\"logprobs\":null,\"finish_reason\":\"length\"}]}\n\n"
                + "data: " + head + "\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":3,\"total_tokens\":6}}\n\n"
                + "data: [DONE]\n\n");
    }

    @Test
    void completionsEventsHaveOpenAiKeys() throws Exception {
        String body = Http.post(server, "/v1/completions",
                "{\"prompt\":[1,2,3,4,5,6,7],\"max_tokens\":5,\"stream\":true,"
                        + "\"stream_options\":{\"include_usage\":true}}").body();
        List<JsonNode> events = Sse.json(body);
        assertThat(events).hasSize(6);
        for (JsonNode e : events.subList(0, 5)) {
            assertThat(fieldNames(e)).containsExactly("id", "object", "created", "model", "choices");
            assertThat(fieldNames(e.get("choices").get(0))).containsExactly("index", "text", "logprobs",
                    "finish_reason");
        }
        assertThat(events.get(4).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(events.get(3).at("/choices/0/finish_reason").isNull()).isTrue();
        JsonNode usage = events.get(5);
        assertThat(usage.get("choices")).isEmpty();
        assertThat(usage.at("/usage/prompt_tokens").asInt()).isEqualTo(7);
        assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(5);
        assertThat(usage.at("/usage/total_tokens").asInt()).isEqualTo(12);
        assertThat(Sse.data(body).getLast()).isEqualTo("[DONE]");
    }

    @Test
    void usageFollowsRequestUnlessPlanOverrides() throws Exception {
        String noUsage = "{\"prompt\":\"x\",\"max_tokens\":2,\"stream\":true}";
        assertThat(Sse.json(Http.post(server, "/v1/completions", noUsage).body()))
                .hasSize(2).allMatch(e -> !e.has("usage"));
        assertThat(Sse.json(Http.post(server, "/v1/completions", noUsage, "x-script", "always-usage").body())
                .getLast().at("/usage/completion_tokens").asInt()).isEqualTo(2);
        String withUsage = "{\"prompt\":\"x\",\"max_tokens\":2,\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":true}}";
        assertThat(Sse.json(Http.post(server, "/v1/completions", withUsage, "x-script", "never-usage").body()))
                .hasSize(2).allMatch(e -> !e.has("usage"));
    }

    @Test
    void chatStreamStartsWithRoleChunk() throws Exception {
        String body = Http.post(server, "/v1/chat/completions",
                "{\"messages\":[{\"role\":\"user\",\"content\":\"hello world!\"}],\"max_completion_tokens\":3,"
                        + "\"max_tokens\":99,\"stream\":true,\"stream_options\":{\"include_usage\":true}}").body();
        List<JsonNode> events = Sse.json(body);
        assertThat(events).hasSize(5);
        assertThat(events.getFirst().at("/choices/0/delta").toString())
                .isEqualTo("{\"role\":\"assistant\",\"content\":\"\"}");
        for (JsonNode e : events.subList(0, 4)) {
            assertThat(e.get("object").asText()).isEqualTo("chat.completion.chunk");
            assertThat(e.get("id").asText()).startsWith("chatcmpl-");
            assertThat(fieldNames(e.get("choices").get(0))).containsExactly("index", "delta", "logprobs",
                    "finish_reason");
        }
        assertThat(events.subList(1, 4)).extracting(e -> e.at("/choices/0/delta/content").asText())
                .containsExactly(" t0", " t1", " t2");
        assertThat(events.get(3).at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(events.get(4).get("usage").toString())
                .isEqualTo("{\"prompt_tokens\":3,\"completion_tokens\":3,\"total_tokens\":6}");
        assertThat(Sse.data(body).getLast()).isEqualTo("[DONE]");
    }

    @Test
    void generateStreamIsCumulative() throws Exception {
        String body = Http.post(server, "/generate",
                "{\"text\":\"abcdefgh\",\"sampling_params\":{\"max_new_tokens\":3},\"stream\":true}").body();
        List<JsonNode> events = Sse.json(body);
        assertThat(events).extracting(e -> e.get("text").asText()).containsExactly(" t0", " t0 t1", " t0 t1 t2");
        assertThat(events).extracting(e -> e.at("/meta_info/completion_tokens").asInt()).containsExactly(1, 2, 3);
        assertThat(events).allMatch(e -> e.at("/meta_info/prompt_tokens").asInt() == 2);
        assertThat(fieldNames(events.getFirst().get("meta_info")))
                .containsExactly("id", "prompt_tokens", "completion_tokens", "finish_reason");
        assertThat(events.get(1).at("/meta_info/finish_reason").isNull()).isTrue();
        assertThat(events.get(2).at("/meta_info/finish_reason/type").asText()).isEqualTo("length");
        assertThat(Sse.data(body).getLast()).isEqualTo("[DONE]");
    }

    @Test
    void multiTokenChunksCountEveryToken() throws Exception {
        String completions = Http.post(server, "/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":10,"
                + "\"stream\":true,\"stream_options\":{\"include_usage\":true}}", "x-script", "chunk4").body();
        List<JsonNode> events = Sse.json(completions);
        assertThat(events).hasSize(4);
        assertThat(events.subList(0, 3)).extracting(e -> e.at("/choices/0/text").asText())
                .containsExactly(" t0 t1 t2 t3", " t4 t5 t6 t7", " t8 t9");
        assertThat(events.get(3).at("/usage/completion_tokens").asInt()).isEqualTo(10);

        String generate = Http.post(server, "/generate", "{\"input_ids\":[1,2],\"sampling_params\":"
                + "{\"max_new_tokens\":10},\"stream\":true}", "x-script", "chunk4").body();
        assertThat(Sse.json(generate)).extracting(e -> e.at("/meta_info/completion_tokens").asInt())
                .containsExactly(4, 8, 10);
        assertThat(Sse.json(generate)).allMatch(e -> e.at("/meta_info/prompt_tokens").asInt() == 2);
    }

    @Test
    void nonStreamingAnswersCarryUsage() throws Exception {
        JsonNode completion = Sse.parse(Http.post(server, "/v1/completions",
                "{\"prompt\":\"abcd\",\"max_tokens\":2}").body());
        assertThat(completion.at("/choices/0/text").asText()).isEqualTo(" t0 t1");
        assertThat(completion.at("/choices/0/finish_reason").asText()).isEqualTo("length");
        assertThat(completion.get("usage").toString())
                .isEqualTo("{\"prompt_tokens\":1,\"completion_tokens\":2,\"total_tokens\":3}");

        HttpResponse<String> chat = Http.post(server, "/v1/chat/completions",
                "{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"12345\"}]}]}");
        assertThat(chat.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode c = Sse.parse(chat.body());
        assertThat(c.get("object").asText()).isEqualTo("chat.completion");
        assertThat(c.at("/choices/0/message/role").asText()).isEqualTo("assistant");
        assertThat(c.at("/usage/prompt_tokens").asInt()).isEqualTo(2);
        assertThat(c.at("/usage/completion_tokens").asInt()).isEqualTo(16); // the plan's default

        JsonNode gen = Sse.parse(Http.post(server, "/generate",
                "{\"text\":\"hi\",\"sampling_params\":{\"max_new_tokens\":2}}").body());
        assertThat(gen.get("text").asText()).isEqualTo(" t0 t1");
        assertThat(gen.at("/meta_info/completion_tokens").asInt()).isEqualTo(2);
    }

    @Test
    void staticEndpointsAndErrors() throws Exception {
        assertThat(Http.get(server, "/health").statusCode()).isEqualTo(200);
        JsonNode models = Sse.parse(Http.get(server, "/v1/models").body());
        assertThat(models.at("/data/0/id").asText()).isEqualTo("servebench-model");

        HttpResponse<String> missing = Http.get(server, "/nope");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(Sse.parse(missing.body()).at("/error/message").asText()).contains("/nope");
        assertThat(Http.get(server, "/v1/completions").statusCode()).isEqualTo(405);

        HttpResponse<String> badJson = Http.post(server, "/v1/completions", "{\"prompt\":");
        assertThat(badJson.statusCode()).isEqualTo(400);
        assertThat(Sse.parse(badJson.body()).at("/error/type").asText()).isEqualTo("invalid_request_error");
        HttpResponse<String> badMax = Http.post(server, "/v1/completions", "{\"max_tokens\":-1}");
        assertThat(Sse.parse(badMax.body()).at("/error/message").asText()).contains("max_tokens (-1)");
        HttpResponse<String> unknown = Http.post(server, "/v1/completions", "{}", "x-script", "nope");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("x-script (nope)");
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
