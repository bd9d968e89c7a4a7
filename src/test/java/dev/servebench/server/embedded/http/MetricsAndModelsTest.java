package dev.servebench.server.embedded.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MetricsAndModelsTest {

    @Test
    void metricsCountTokensRequestsAndHttpStatuses() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(2, 256, Duration.ofMillis(1), 3))) {
            fx.post("/v1/completions", "{\"prompt\":\"a b\",\"max_tokens\":4,\"ignore_eos\":true,\"stream\":true}");
            fx.post("/v1/completions", "{\"prompt\":\"a b c\",\"max_tokens\":9}"); // EOS after 3
            fx.post("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"max_tokens\":2,\"ignore_eos\":true}");
            fx.post("/v1/completions", "{\"prompt\":\"x\",\"max_tokens\":\"ten\"}");
            fx.get("/nope");

            HttpResponse<String> res = fx.get("/metrics");

            assertThat(res.statusCode()).isEqualTo(200);
            assertThat(res.headers().firstValue("content-type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
            // prompts: (2+1) + (3+1) + (3+1 for "user: x\nassistant:") = 11; generated: 4 + 3 + 2
            assertThat(res.body()).contains(
                    "# TYPE servebench_num_requests_running gauge\nservebench_num_requests_running 0.0\n",
                    "# TYPE servebench_num_requests_waiting gauge\nservebench_num_requests_waiting 0.0\n",
                    "# TYPE servebench_prompt_tokens_total counter\nservebench_prompt_tokens_total 11.0\n",
                    "# TYPE servebench_generation_tokens_total counter\nservebench_generation_tokens_total 9.0\n",
                    "servebench_request_success_total{finished_reason=\"length\"} 2.0\n",
                    "servebench_request_success_total{finished_reason=\"stop\"} 1.0\n",
                    "servebench_http_requests_total{endpoint=\"/v1/completions\",status=\"200\"} 2.0\n",
                    "servebench_http_requests_total{endpoint=\"/v1/completions\",status=\"400\"} 1.0\n",
                    "servebench_http_requests_total{endpoint=\"/v1/chat/completions\",status=\"200\"} 1.0\n",
                    "servebench_http_requests_total{endpoint=\"other\",status=\"404\"} 1.0\n");
            // the scrape itself is counted after it is rendered
            assertThat(fx.get("/metrics").body()).contains("servebench_http_requests_total{endpoint=\"/metrics\",status=\"200\"} 1.0");
        }
    }

    @Test
    void runningAndWaitingFollowTheEngine() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 2048, Duration.ofMillis(5)))) {
            var streams = java.util.stream.IntStream.range(0, 3).mapToObj(i -> fx.http.sendAsync(
                    java.net.http.HttpRequest.newBuilder(fx.uri("/v1/completions")).POST(java.net.http.HttpRequest.BodyPublishers
                            .ofString("{\"prompt\":\"x\",\"max_tokens\":40,\"ignore_eos\":true,\"stream\":true}")).build(),
                    HttpResponse.BodyHandlers.discarding())).toList();
            Eventually.within(Duration.ofSeconds(3), () -> assertThat(fx.get("/metrics").body())
                    .contains("servebench_num_requests_running 1.0\n", "servebench_num_requests_waiting 2.0\n"));
            streams.forEach(java.util.concurrent.CompletableFuture::join);
        }
    }

    @Test
    void modelsListsTheEnginesModel() throws Exception {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 512, Duration.ofMillis(1)))) {
            HttpResponse<String> res = fx.get("/v1/models");

            assertThat(res.statusCode()).isEqualTo(200);
            JsonNode body = Json.MAPPER.readTree(res.body());
            assertThat(body.path("object").asText()).isEqualTo("list");
            JsonNode model = body.path("data").get(0);
            assertThat(model.path("id").asText()).isEqualTo("scripted-model");
            assertThat(model.path("object").asText()).isEqualTo("model");
            assertThat(model.path("max_model_len").asInt()).isEqualTo(512);
            assertThat(model.path("created").asLong()).isPositive();
            assertThat(body.path("data")).hasSize(1);
        }
    }

    @Test
    void healthIs200WithEmptyBody() {
        try (ServerFixture fx = new ServerFixture(new ScriptedEngine(1, 64, Duration.ofMillis(1)))) {
            HttpResponse<String> res = fx.get("/health");
            assertThat(res.statusCode()).isEqualTo(200);
            assertThat(res.body()).isEmpty();
        }
    }
}
