package dev.servebench.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.Backend;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class CacheResetsTest {

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
    void sglangFlushesItsRadixCache() {
        stub.always("/flush_cache", 200, "Cache flushed.");

        CacheReset reset = CacheResets.attempt(stub.baseUrl(), Backend.SGLANG_OAI, Optional.of("sk-test"));

        assertThat(reset).isEqualTo(new CacheReset.Done(URI.create(stub.baseUrl() + "/flush_cache")));
        assertThat(stub.paths()).containsExactly("POST /flush_cache");
        assertThat(stub.requests().getFirst().authorization()).isEqualTo("Bearer sk-test");
    }

    @Test
    void vllmIsAskedForItsOwnEndpointFirst() {
        stub.always("/reset_prefix_cache", 200, "");

        CacheReset reset = CacheResets.attempt(stub.baseUrl(), Backend.VLLM_CHAT, Optional.empty());

        assertThat(reset).isEqualTo(new CacheReset.Done(URI.create(stub.baseUrl() + "/reset_prefix_cache")));
        assertThat(stub.paths()).containsExactly("POST /reset_prefix_cache");
    }

    @Test
    void aGenericBackendTriesBothEndpoints() {
        stub.always("/flush_cache", 404, "{\"detail\":\"Not Found\"}").always("/reset_prefix_cache", 200, "");

        CacheReset reset = CacheResets.attempt(stub.baseUrl(), Backend.OPENAI, Optional.empty());

        assertThat(reset).isInstanceOf(CacheReset.Done.class);
        assertThat(stub.paths()).containsExactly("POST /flush_cache", "POST /reset_prefix_cache");
    }

    @Test
    void neitherEndpointIsNotOfferedAndSaysWhy() {
        stub.always("/reset_prefix_cache", 405, "");   // /flush_cache: 404

        CacheReset reset = CacheResets.attempt(stub.baseUrl(), Backend.VLLM, Optional.empty());

        assertThat(reset).isInstanceOfSatisfying(CacheReset.NotOffered.class, notOffered -> assertThat(notOffered.reason())
                .contains("POST /reset_prefix_cache answered 405", "POST /flush_cache answered 404", "VLLM_SERVER_DEV_MODE=1"));
    }

    @Test
    void aBusyServerIsAFailureWithItsAnswer() {
        stub.always("/flush_cache", 400, "Cache not flushed: there are running requests");

        CacheReset reset = CacheResets.attempt(stub.baseUrl(), Backend.SGLANG, Optional.empty());

        assertThat(reset).isInstanceOfSatisfying(CacheReset.Failed.class, failed -> assertThat(failed.reason())
                .contains("/flush_cache answered HTTP 400: Cache not flushed: there are running requests"));
        assertThat(stub.paths()).containsExactly("POST /flush_cache");
        assertThat(reset.describe()).startsWith("prefix cache reset failed: ");
    }

    @Test
    void anUnreachableServerIsAFailureNotAnException() throws Exception {
        URI closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = URI.create("http://127.0.0.1:" + socket.getLocalPort());
        }

        CacheReset reset = CacheResets.attempt(closed, Backend.SGLANG, Optional.empty());

        assertThat(reset).isInstanceOfSatisfying(CacheReset.Failed.class,
                failed -> assertThat(failed.reason()).contains("connection refused"));
    }

    @Test
    void candidatesFollowTheBackendName() {
        assertThat(CacheResets.candidates(Backend.SGLANG_NATIVE)).containsExactly("/flush_cache", "/reset_prefix_cache");
        assertThat(CacheResets.candidates(Backend.VLLM)).containsExactly("/reset_prefix_cache", "/flush_cache");
        assertThat(CacheResets.candidates(Backend.LMDEPLOY)).containsExactly("/flush_cache", "/reset_prefix_cache");
    }
}
