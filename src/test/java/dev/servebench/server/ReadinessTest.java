package dev.servebench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.client.Backend;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ReadinessTest {

    private static final String MODELS = "{\"object\":\"list\",\"data\":[{\"id\":\"stub-model\",\"object\":\"model\"}]}";
    private static final String COMPLETION = "{\"choices\":[{\"index\":0,\"text\":\" hi\",\"finish_reason\":\"length\"}]}";
    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);
    private final ObjectMapper json = new ObjectMapper();
    private StubHttpServer stub;

    @BeforeEach
    void startStub() throws Exception {
        stub = new StubHttpServer();
    }

    @AfterEach
    void stopStub() {
        stub.close();
    }

    @Test
    void waitsThrough503UntilAOneTokenCompletionSucceeds() throws Exception {
        stub.always("/v1/models", 200, MODELS)
                .on("/v1/completions", n -> n < 2 ? new StubHttpServer.Answer(503, "{\"error\":\"loading\"}")
                        : new StubHttpServer.Answer(200, COMPLETION));

        Readiness.Ready ready = Readiness.await(stub.baseUrl(), Backend.OPENAI, Optional.empty(), Optional.of("sk-test"),
                TEN_SECONDS, () -> true);

        assertThat(ready.model()).contains("stub-model");
        assertThat(ready.attempts()).isEqualTo(3);
        StubHttpServer.Seen last = stub.requests().getLast();
        assertThat(last.method() + " " + last.path()).isEqualTo("POST /v1/completions");
        assertThat(last.authorization()).isEqualTo("Bearer sk-test");
        JsonNode body = json.readTree(last.body());
        assertThat(body.path("max_tokens").asInt()).isEqualTo(1);
        assertThat(body.path("model").asText()).isEqualTo("stub-model");
        assertThat(body.path("stream").asBoolean(true)).isFalse();
    }

    @Test
    void theSpecsModelIsSentWithoutAskingForTheList() throws Exception {
        stub.always("/v1/completions", 200, COMPLETION);

        Readiness.Ready ready = Readiness.await(stub.baseUrl(), Backend.VLLM, Optional.of("glm-5"), Optional.empty(),
                TEN_SECONDS, () -> true);

        assertThat(ready.model()).contains("glm-5");
        assertThat(stub.paths()).containsExactly("POST /v1/completions");
        assertThat(stub.requests().getFirst().authorization()).isNull();
        assertThat(json.readTree(stub.requests().getFirst().body()).path("model").asText()).isEqualTo("glm-5");
    }

    @Test
    void noModelFieldWhenTheServerListsNone() throws Exception {
        stub.always("/v1/chat/completions", 200, COMPLETION);   // /v1/models: 404

        Readiness.Ready ready = Readiness.await(stub.baseUrl(), Backend.OPENAI_CHAT, Optional.empty(), Optional.empty(),
                TEN_SECONDS, () -> true);

        assertThat(ready.model()).isEmpty();
        assertThat(stub.paths()).containsExactly("GET /v1/models", "POST /v1/chat/completions");
        JsonNode body = json.readTree(stub.requests().getLast().body());
        assertThat(body.has("model")).isFalse();
        assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo(Readiness.PROMPT);
        assertThat(body.path("max_tokens").asInt()).isEqualTo(1);
    }

    @Test
    void sglangNativeBackendAsksGenerateForOneNewToken() throws Exception {
        stub.always("/generate", 200, "{\"text\":\" hi\",\"meta_info\":{}}");

        Readiness.await(stub.baseUrl(), Backend.SGLANG, Optional.empty(), Optional.empty(), TEN_SECONDS, () -> true);

        assertThat(stub.paths()).containsExactly("POST /generate");
        JsonNode body = json.readTree(stub.requests().getFirst().body());
        assertThat(body.path("sampling_params").path("max_new_tokens").asInt()).isEqualTo(1);
        assertThat(body.path("text").asText()).isEqualTo(Readiness.PROMPT);
    }

    @Test
    void timeoutNamesTheUrlTheLastErrorAndTheTimeWaited() {
        stub.always("/v1/models", 200, MODELS).always("/v1/completions", 503, "{\"error\":\"still loading weights\"}");
        long start = System.nanoTime();

        assertThatThrownBy(() -> Readiness.await(stub.baseUrl(), Backend.OPENAI, Optional.empty(), Optional.empty(),
                Duration.ofSeconds(1), () -> true))
                .isInstanceOfSatisfying(ServerStartException.class,
                        e -> assertThat(e.reason()).isEqualTo(ServerStartException.Reason.TIMED_OUT))
                .hasMessageContaining("server at " + stub.baseUrl() + " was not ready within the ready timeout of 1.0 s")
                .hasMessageMatching("(?s).*\\(waited 1\\.\\d s, \\d+ attempts\\).*")
                .hasMessageContaining("last error: POST /v1/completions answered HTTP 503: {\"error\":\"still loading weights\"}");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void nothingListeningIsConnectionRefusedUntilTheTimeoutAndUrlCredentialsStayOut() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        URI url = URI.create("http://user:secret-pw@127.0.0.1:" + port);

        assertThatThrownBy(() -> Readiness.await(url, Backend.OPENAI, Optional.of("m"), Optional.empty(),
                Duration.ofMillis(700), () -> true))
                .isInstanceOf(ServerStartException.class)
                .hasMessageContaining("server at http://127.0.0.1:" + port + " was not ready")
                .hasMessageContaining("last error: POST /v1/completions: connection refused")
                .hasMessageNotContaining("secret-pw");
    }

    @Test
    void aRefusedApiKeyFailsAtOnceInsteadOfWaitingForTheTimeout() {
        stub.always("/v1/models", 401, "{\"error\":\"invalid api key\"}");
        long start = System.nanoTime();

        assertThatThrownBy(() -> Readiness.await(stub.baseUrl(), Backend.OPENAI, Optional.empty(), Optional.of("sk-wrong"),
                Duration.ofMinutes(5), () -> true))
                .isInstanceOfSatisfying(ServerStartException.class,
                        e -> assertThat(e.reason()).isEqualTo(ServerStartException.Reason.REJECTED))
                .hasMessageContaining("GET /v1/models answered HTTP 401")
                .hasMessageContaining("the API key from OPENAI_API_KEY was refused")
                .hasMessageNotContaining("sk-wrong");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void aMissingEndpointFailsAtOnceAndSuggestsTheBackend() {
        stub.always("/v1/models", 200, MODELS);   // /v1/chat/completions: 404

        assertThatThrownBy(() -> Readiness.await(stub.baseUrl(), Backend.VLLM_CHAT, Optional.empty(), Optional.empty(),
                Duration.ofMinutes(5), () -> true))
                .isInstanceOfSatisfying(ServerStartException.class,
                        e -> assertThat(e.reason()).isEqualTo(ServerStartException.Reason.REJECTED))
                .hasMessageContaining("POST /v1/chat/completions answered HTTP 404")
                .hasMessageContaining("does target.backend vllm-chat match the server?");
    }

    @Test
    void a200ThatIsNotACompletionIsNotReady() {
        stub.always("/v1/completions", 200, "<html>proxy page</html>");

        assertThatThrownBy(() -> Readiness.await(stub.baseUrl(), Backend.OPENAI, Optional.of("m"), Optional.empty(),
                Duration.ofMillis(600), () -> true))
                .hasMessageContaining("answered 200 but not with a completion: <html>proxy page</html>");
    }

    @Test
    void stopsWaitingOnceTheServerHasEnded() {
        long start = System.nanoTime();

        assertThatThrownBy(() -> Readiness.await(stub.baseUrl(), Backend.OPENAI, Optional.empty(), Optional.empty(),
                Duration.ofMinutes(5), () -> false))
                .isInstanceOfSatisfying(ServerStartException.class,
                        e -> assertThat(e.reason()).isEqualTo(ServerStartException.Reason.EXITED))
                .hasMessageContaining("server at " + stub.baseUrl() + " ended before it was ready");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void baseUrlWithAPathPrefixAndTrailingSlashKeepsThePrefix() throws Exception {
        stub.always("/proxy/v1/completions", 200, COMPLETION);

        Readiness.await(URI.create(stub.baseUrl() + "/proxy/"), Backend.OPENAI, Optional.of("m"), Optional.empty(),
                TEN_SECONDS, () -> true);

        assertThat(stub.paths()).containsExactly("POST /proxy/v1/completions");
    }
}
