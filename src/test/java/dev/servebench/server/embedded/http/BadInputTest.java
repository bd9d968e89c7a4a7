package dev.servebench.server.embedded.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BadInputTest {

    private static ServerFixture fx;

    @BeforeAll
    static void start() {
        fx = new ServerFixture(new ScriptedEngine(2, 64, Duration.ofMillis(1)),
                ServerSettings.defaults().withPort(0).withMaxRequestBytes(4096));
    }

    @AfterAll
    static void stop() {
        fx.close();
    }

    /** The OpenAI error object: exactly message, type, param, code. */
    private static JsonNode error(HttpResponse<String> res, int status) throws Exception {
        assertThat(res.statusCode()).as(res.body()).isEqualTo(status);
        assertThat(res.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode error = Json.MAPPER.readTree(res.body()).path("error");
        assertThat(error.properties()).extracting(java.util.Map.Entry::getKey)
                .containsExactly("message", "type", "param", "code");
        return error;
    }

    @Test
    void invalidJsonIs400() throws Exception {
        JsonNode error = error(fx.post("/v1/completions", "{\"prompt\": \"x\", "), 400);
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("message").asText()).startsWith("request body is not valid JSON");
        assertThat(error.path("param").isNull()).isTrue();
        assertThat(error.path("code").isNull()).isTrue();
    }

    @Test
    void nonObjectBodyIs400() throws Exception {
        assertThat(error(fx.post("/v1/completions", "[1,2]"), 400).path("message").asText())
                .isEqualTo("request body must be a JSON object, got an array");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/v1/completions      | {\"prompt\":\"x\",\"max_tokens\":\"ten\"}     | max_tokens  | max_tokens must be an integer, got a string: \"ten\"",
            "/v1/completions      | {\"prompt\":\"x\",\"max_tokens\":0}         | max_tokens  | max_tokens must be an integer >= 1",
            "/v1/completions      | {\"prompt\":\"x\",\"max_tokens\":2.5}       | max_tokens  | max_tokens must be an integer, got a number: 2.5",
            "/v1/completions      | {\"prompt\":\"x\",\"stream\":\"yes\"}       | stream      | stream must be a boolean, got a string",
            "/v1/completions      | {\"prompt\":\"x\",\"temperature\":\"hot\"}  | temperature | temperature must be a number, got a string",
            "/v1/completions      | {\"prompt\":\"x\",\"temperature\":-1}      | temperature | temperature must be a finite number >= 0.0, got -1",
            "/v1/completions      | {\"prompt\":\"x\",\"seed\":\"s\"}           | seed        | seed must be a 64-bit integer, got a string",
            "/v1/completions      | {\"prompt\":\"x\",\"ignore_eos\":1}         | ignore_eos  | ignore_eos must be a boolean, got an integer: 1",
            "/v1/completions      | {\"prompt\":\"x\",\"min_tokens\":9,\"max_tokens\":2} | min_tokens | min_tokens (9) must be <= max_tokens (2)",
            "/v1/completions      | {\"prompt\":\"x\",\"n\":2}                  | n           | n must be 1",
            "/v1/completions      | {\"prompt\":\"x\",\"stream_options\":{\"include_usage\":\"y\"}} | stream_options.include_usage | stream_options.include_usage must be a boolean",
            "/v1/completions      | {\"max_tokens\":3}                          | prompt      | prompt is required",
            "/v1/completions      | {\"prompt\":42}                             | prompt      | prompt must be a string or an array of token ids, got an integer: 42",
            "/v1/completions      | {\"prompt\":[\"a\",\"b\"]}                  | prompt      | prompt is a batch of 2 prompts",
            "/v1/completions      | {\"prompt\":[[1,2],[3]]}                    | prompt      | prompt is a batch of 2 prompts",
            "/v1/completions      | {\"prompt\":[1,99999]}                      | prompt      | prompt[1] must be a token id in [0, 2048), got 99999",
            "/v1/completions      | {\"prompt\":[]}                             | prompt      | prompt must not be empty",
            "/v1/completions      | {\"prompt\":\"   \"}                        | prompt      | prompt must not be empty",
            "/v1/chat/completions | {\"messages\":\"hi\"}                       | messages    | messages must be a non-empty array of messages, got a string",
            "/v1/chat/completions | {\"messages\":[{\"content\":\"x\"}]}        | messages[0].role | messages[0].role must be a non-empty string",
            "/v1/chat/completions | {\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image_url\"}]}]} | messages[0].content[0] | messages[0].content[0] must be",
            "/v1/chat/completions | {\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_completion_tokens\":\"5\"} | max_completion_tokens | max_completion_tokens must be an integer",
    })
    void wrongFieldIs400NamingIt(String path, String body, String param, String message) throws Exception {
        JsonNode error = error(fx.post(path, body), 400);
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        assertThat(error.path("param").asText()).isEqualTo(param);
        assertThat(error.path("message").asText()).startsWith(message);
    }

    @Test
    void unknownFieldsAndNullsAreIgnored() {
        HttpResponse<String> res = fx.post("/v1/completions", """
                {"prompt":"x","max_tokens":null,"stop":["\\n"],"top_k":3,"logit_bias":{},"user":"u","seed":null}""");
        assertThat(res.statusCode()).isEqualTo(200);
    }

    @Test
    void promptPlusMaxTokensBeyondTheSlotContextIs400NamingTheLimit() throws Exception {
        JsonNode error = error(fx.post("/v1/completions", "{\"prompt\":\"a b c\",\"max_tokens\":61,\"stream\":true}"), 400);
        assertThat(error.path("message").asText()).contains("slot context of 64 tokens");
        assertThat(error.path("type").asText()).isEqualTo("invalid_request_error");
        // 3 + BOS + 60 = 64 fits exactly
        assertThat(fx.post("/v1/completions", "{\"prompt\":\"a b c\",\"max_tokens\":60}").statusCode()).isEqualTo(200);
    }

    @Test
    void otherModelIs404() throws Exception {
        JsonNode error = error(fx.post("/v1/completions", "{\"model\":\"gpt-4\",\"prompt\":\"x\"}"), 404);
        assertThat(error.path("param").asText()).isEqualTo("model");
        assertThat(error.path("code").asText()).isEqualTo("model_not_found");
        assertThat(error.path("message").asText()).contains("gpt-4", "scripted-model");
    }

    @Test
    void unknownPathIs404Json() throws Exception {
        assertThat(error(fx.get("/v1/engines"), 404).path("message").asText()).startsWith("no endpoint GET /v1/engines");
        error(fx.post("/generate", "{}"), 404);
    }

    @Test
    void wrongMethodIs405JsonWithAllow() throws Exception {
        HttpResponse<String> res = fx.get("/v1/completions");
        assertThat(error(res, 405).path("message").asText()).isEqualTo("method GET is not allowed on /v1/completions; use POST");
        assertThat(res.headers().firstValue("allow")).hasValue("POST");
        error(fx.post("/health", "{}"), 405);
        error(fx.send(HttpRequest.newBuilder(fx.uri("/v1/models")).DELETE()), 405);
    }

    @Test
    void bodyOverTheLimitIs413Json() throws Exception {
        String big = "{\"prompt\":\"" + "x ".repeat(3000) + "\"}";
        JsonNode error = error(fx.post("/v1/completions", big), 413);
        assertThat(error.path("message").asText()).contains("larger than the server's limit");
    }
}
