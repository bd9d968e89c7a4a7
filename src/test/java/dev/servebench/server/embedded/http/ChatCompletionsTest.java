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

class ChatCompletionsTest {

    private static ServerFixture fx;

    @BeforeAll
    static void start() {
        fx = new ServerFixture(new ScriptedEngine(4, 256, Duration.ofMillis(2), 4));
    }

    @AfterAll
    static void stop() {
        fx.close();
    }

    @Test
    void streamsRoleChunkThenContentDeltasThenUsageThenDone() throws Exception {
        HttpResponse<String> res = fx.post("/v1/chat/completions", """
                {"model":"scripted-model","messages":[{"role":"user","content":"hello there"}],"max_tokens":2,
                 "stream":true,"stream_options":{"include_usage":true},"ignore_eos":true,"temperature":0.0}""");

        assertThat(res.statusCode()).isEqualTo(200);
        List<String> events = ServerFixture.events(res.body());
        assertThat(events).hasSize(5);
        String id = Json.MAPPER.readTree(events.get(0)).path("id").asText();
        assertThat(id).matches("chatcmpl-[0-9a-f]{32}");
        String head = Pattern.quote("{\"id\":\"" + id + "\",\"object\":\"chat.completion.chunk\",\"created\":") + "\\d+"
                + Pattern.quote(",\"model\":\"scripted-model\",");
        assertThat(events.get(0)).matches(head + Pattern.quote(
                "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}"));
        assertThat(events.get(1)).matches(head + Pattern.quote(
                "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" t0\"},\"logprobs\":null,\"finish_reason\":null}]}"));
        assertThat(events.get(2)).matches(head + Pattern.quote(
                "\"choices\":[{\"index\":0,\"delta\":{\"content\":\" t1\"},\"logprobs\":null,\"finish_reason\":\"length\"}]}"));
        // template "user: hello there\nassistant:" is 4 words for the fake tokenizer, + BOS
        assertThat(events.get(3)).matches(head + Pattern.quote(
                "\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,\"total_tokens\":7}}"));
        assertThat(events.get(4)).isEqualTo("[DONE]");
    }

    @Test
    void messagesAreJoinedWithTheDocumentedTemplate() {
        fx.engine.tokenized.clear();
        fx.post("/v1/chat/completions", """
                {"messages":[{"role":"system","content":"Be brief."},
                             {"role":"user","content":[{"type":"text","text":"Hi "},{"type":"text","text":"you"}]},
                             {"role":"assistant","content":null}],"max_completion_tokens":1}""");

        assertThat(fx.engine.tokenized).containsExactly("system: Be brief.\nuser: Hi you\nassistant: \nassistant:");
    }

    @Test
    void maxCompletionTokensWinsOverMaxTokens() throws Exception {
        HttpResponse<String> res = fx.post("/v1/chat/completions", """
                {"messages":[{"role":"user","content":"x"}],"max_completion_tokens":3,"max_tokens":1,"ignore_eos":true}""");

        assertThat(Json.MAPPER.readTree(res.body()).path("usage").path("completion_tokens").asInt()).isEqualTo(3);
    }

    @Test
    void nonStreamingAnswersOneChatCompletion() throws Exception {
        HttpResponse<String> res = fx.post("/v1/chat/completions", """
                {"messages":[{"role":"user","content":"x"}],"max_tokens":10}""");

        assertThat(res.statusCode()).isEqualTo(200);
        JsonNode body = Json.MAPPER.readTree(res.body());
        assertThat(body.path("object").asText()).isEqualTo("chat.completion");
        JsonNode choice = body.path("choices").get(0);
        assertThat(choice.path("message").toString()).isEqualTo("{\"role\":\"assistant\",\"content\":\" t0 t1 t2 t3\"}");
        assertThat(choice.path("finish_reason").asText()).isEqualTo("stop");
        assertThat(body.path("usage").path("prompt_tokens").asInt()).isEqualTo(4);
    }

    @Test
    void eosStreamEndsWithEmptyContentStopChunk() throws Exception {
        HttpResponse<String> res = fx.post("/v1/chat/completions", """
                {"messages":[{"role":"user","content":"x"}],"max_tokens":10,"stream":true}""");

        List<String> events = ServerFixture.events(res.body());
        // role, 4 tokens, stop, [DONE]
        assertThat(events).hasSize(7);
        JsonNode stop = Json.MAPPER.readTree(events.get(5)).path("choices").get(0);
        assertThat(stop.path("delta").toString()).isEqualTo("{\"content\":\"\"}");
        assertThat(stop.path("finish_reason").asText()).isEqualTo("stop");
    }
}
