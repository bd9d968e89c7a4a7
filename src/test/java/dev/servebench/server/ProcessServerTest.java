package dev.servebench.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.client.Backend;
import dev.servebench.spec.ProcessTargetSpec;
import dev.servebench.spec.UrlTargetSpec;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Process targets, with servebench's own {@code serve} command as the real server, run as a separate JVM. */
class ProcessServerTest {

    private static final Duration STOP_GRACE = Duration.ofSeconds(10);

    @TempDir
    Path logs;

    @Test
    void servesTheEmbeddedEngineFromAChildJvmAndStopsIt() throws Exception {
        int port = freePort();
        ProcessTargetSpec spec = new ProcessTargetSpec(serve(port, "--slots", "2", "--context-per-slot", "64",
                "--weights", "q4_0"), port, Duration.ofSeconds(60), Map.of("SERVEBENCH_TEST_SECRET", "do-not-print"),
                Optional.empty(), Backend.OPENAI, Optional.empty());
        Path logFile = logs.resolve("server-process.log");

        ProcessServer server = ProcessServer.start(spec, logFile, Optional.empty(), STOP_GRACE);
        ProcessHandle process = server.process();
        try {
            assertThat(server.baseUrl()).hasToString("http://127.0.0.1:" + port);
            assertThat(server.kind()).isEqualTo("process");
            assertThat(server.model()).hasValueSatisfying(model -> assertThat(model).startsWith("tiny-moe"));
            JsonNode completion = complete(server, 3);
            assertThat(completion.path("choices")).hasSize(1);
            assertThat(completion.path("usage").path("completion_tokens").asInt()).isEqualTo(3);
            assertThat(server.logExcerpt(20)).contains("servebench: serving", "(2 slots, 64 tokens each)");
            assertThat(server.describe()).contains("pid " + process.pid(), "SERVEBENCH_TEST_SECRET", logFile.toString())
                    .doesNotContain("do-not-print");
            // servebench's own server has neither reset endpoint: both answer 404.
            assertThat(server.resetCache()).isInstanceOf(CacheReset.NotOffered.class);

            try (UrlServer sameServer = UrlServer.connect(new UrlTargetSpec(server.baseUrl(), Backend.OPENAI_CHAT,
                    Optional.empty()), Optional.empty(), Duration.ofSeconds(10))) {
                assertThat(sameServer.model()).isEqualTo(server.model());
                assertThat(sameServer.logExcerpt(10)).isEmpty();
            }
        } finally {
            server.close();
        }

        assertThat(process.isAlive()).isFalse();
        assertThat(listening(port)).as("port %d after close", port).isFalse();
        assertThat(Files.readString(logFile)).contains("servebench: serving");
        server.close();   // twice is harmless
    }

    @Test
    void aProcessThatExitsAtOnceFailsFastWithItsLastWords() {
        int port = freePort();
        ProcessTargetSpec spec = new ProcessTargetSpec(serve(port, "--weights", "bogus"), port, Duration.ofSeconds(60),
                Map.of(), Optional.empty(), Backend.OPENAI, Optional.empty());
        long start = System.nanoTime();

        ServerStartException failure = catchThrowableOfType(ServerStartException.class,
                () -> ProcessServer.start(spec, logs.resolve("bogus.log"), Optional.empty(), STOP_GRACE));

        assertThat(failure).as("start should have failed").isNotNull();
        assertThat(failure.reason()).isEqualTo(ServerStartException.Reason.EXITED);
        assertThat(failure).hasMessageContaining("exited with code 2 before it was ready")
                .hasMessageContaining("server at http://127.0.0.1:" + port + " ended before it was ready")
                .hasMessageContaining("log lines of " + logs.resolve("bogus.log"))
                .hasMessageContaining("servebench: --weights must be one of f16, q4_0, got 'bogus'");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    }

    @Test
    void aProcessThatNeverServesIsStoppedAtTheTimeout() {
        int port = freePort();
        ProcessTargetSpec spec = new ProcessTargetSpec(IdleProcessMain.command(), port, Duration.ofSeconds(4), Map.of(),
                Optional.empty(), Backend.SGLANG_OAI, Optional.empty());

        ServerStartException failure = catchThrowableOfType(ServerStartException.class,
                () -> ProcessServer.start(spec, logs.resolve("idle.log"), Optional.empty(), STOP_GRACE));

        assertThat(failure).as("start should have failed").isNotNull();
        assertThat(failure.reason()).isEqualTo(ServerStartException.Reason.TIMED_OUT);
        assertThat(failure).hasMessageContaining("was stopped")
                .hasMessageContaining("was not ready within the ready timeout of 4.0 s")
                .hasMessageContaining("connection refused")
                .hasMessageContaining(IdleProcessMain.LINE);
        Matcher pid = Pattern.compile("\\(pid (\\d+)\\)").matcher(failure.getMessage());
        assertThat(pid.find()).isTrue();
        assertThat(ProcessHandle.of(Long.parseLong(pid.group(1))).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    }

    @Test
    void aMissingProgramCannotBeLaunched() {
        ProcessTargetSpec spec = new ProcessTargetSpec(List.of("/nonexistent/servebench-no-such-server", "--port", "1"),
                freePort(), Duration.ofSeconds(5), Map.of(), Optional.empty(), Backend.OPENAI, Optional.empty());

        assertThatThrownBy(() -> ProcessServer.start(spec, logs.resolve("missing.log"), Optional.empty()))
                .isInstanceOfSatisfying(ServerStartException.class,
                        e -> assertThat(e.reason()).isEqualTo(ServerStartException.Reason.LAUNCH_FAILED))
                .hasMessageContaining("cannot start process target `/nonexistent/servebench-no-such-server --port 1`");
    }

    @Test
    void aTakenPortIsRefusedBeforeAnythingStarts() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ProcessTargetSpec spec = new ProcessTargetSpec(IdleProcessMain.command(), taken.getLocalPort(),
                    Duration.ofSeconds(5), Map.of(), Optional.empty(), Backend.OPENAI, Optional.empty());

            assertThatThrownBy(() -> ProcessServer.start(spec, logs.resolve("taken.log"), Optional.empty()))
                    .isInstanceOf(ServerStartException.class)
                    .hasMessageContaining("port " + taken.getLocalPort() + " on 127.0.0.1 is already in use");
        }
    }

    /** {@code java … dev.servebench.cli.Main serve --port PORT ARGS}: the embedded server as its own JVM. */
    static List<String> serve(int port, String... args) {
        return ServeProcess.command(port, args);
    }

    static int freePort() {
        return ServeProcess.freePort();
    }

    static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static JsonNode complete(ServerUnderTest server, int tokens) throws Exception {
        ObjectMapper json = new ObjectMapper();
        String body = json.createObjectNode().put("model", server.model().orElseThrow()).put("prompt", "Hello")
                .put("max_tokens", tokens).put("ignore_eos", true).put("stream", false).toString();
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(server.baseUrl().resolve("/v1/completions"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return json.readTree(response.body());
        }
    }
}
