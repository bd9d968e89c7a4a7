package dev.servebench.cli;

import static dev.servebench.cli.CliRun.servebench;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.testserver.ConnectionBehavior;
import dev.servebench.testserver.Fault;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.testserver.ServerOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code servebench run} against servers that behave like real ones at the connection level (uvicorn's
 * idle timeout, proxies that close, HTTP/1.0, Content-Length error bodies): every run ends by itself, every
 * request has a record, the exit code is the documented one, and nothing prints a stack trace.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RunFaultsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void captureStderr() {
        // Netty and the JDK log to System.err, not to picocli's writer: a stack trace would land here.
        originalErr = System.err;
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void restoreStderr() {
        System.setErr(originalErr);
        String printed = stderr.toString(StandardCharsets.UTF_8);
        originalErr.print(printed);
        assertThat(printed).as("stack traces on System.err").doesNotContain("\tat ", "Exception in thread");
    }

    private static CliRun servebenchWithoutStackTraces(List<String> args) {
        CliRun run = servebench(args);
        assertThat(run.out() + run.err()).doesNotContain("\tat ");
        return run;
    }

    private CliRun run(ScriptedServer server, String... extra) {
        List<String> args = new ArrayList<>(List.of("run", "--base-url", server.baseUri().toString(),
                "--random-input-len", "8", "--random-output-len", "6", "--random-range-ratio", "1",
                "--output-dir", dir.toString(), "--no-progress"));
        args.addAll(List.of(extra));
        return servebenchWithoutStackTraces(args);
    }

    private static ScriptedServer server(ConnectionBehavior behavior) {
        return ScriptedServer.start(Script.of(Plan.fullSpeed()), ServerOptions.defaults().withConnection(behavior));
    }

    private JsonNode summary(String label) throws Exception {
        return JSON.readTree(dir.resolve(label + ".summary.json").toFile());
    }

    private long records(String label) throws Exception {
        return Files.readAllLines(dir.resolve(label + ".records.jsonl")).size();
    }

    @Test
    void serverClosingAfterEveryResponseWithoutNoticeCostsNoRequest() throws Exception {
        for (int n : new int[] {1, 3}) {
            try (ScriptedServer server = server(ConnectionBehavior.keepAlive().withCloseAfterResponses(n))) {
                CliRun run = run(server, "--num-prompts", "60", "--max-concurrency", "4");
                assertThat(run.exit()).as("close after %d: %s", n, run.err()).isZero();
                assertThat(records("concurrency-4")).isEqualTo(60);
                JsonNode s = summary("concurrency-4");
                assertThat(s.get("completed").asInt()).isEqualTo(60);
                JsonNode client = s.at("/servebench/client");
                // Each close is either seen before reuse (skipped) or met by the request (retried once on a
                // fresh connection); 60 requests over connections that carry n responses each need ~60/n.
                long expectedReconnects = n == 1 ? 50 : 10;
                assertThat(client.get("stale_connection_retries").asLong()
                        + client.get("stale_connections_skipped").asLong()).isGreaterThanOrEqualTo(expectedReconnects);
                assertThat(client.get("connections_opened_during").asLong()).isGreaterThanOrEqualTo(expectedReconnects);
            }
        }
    }

    @Test
    void connectionCloseHeaderAndHttp10AreHonoured() throws Exception {
        for (ConnectionBehavior behavior : List.of(ConnectionBehavior.keepAlive().withAnnounceClose(true),
                ConnectionBehavior.keepAlive().withHttp10(true))) {
            try (ScriptedServer server = server(behavior)) {
                CliRun run = run(server, "--num-prompts", "40", "--max-concurrency", "4");
                assertThat(run.exit()).as("%s: %s", behavior, run.err()).isZero();
                assertThat(summary("concurrency-4").get("completed").asInt()).isEqualTo(40);
                assertThat(summary("concurrency-4").get("total_output_tokens").asInt()).isEqualTo(40 * 6);
                assertThat(summary("concurrency-4").at("/servebench/client/stale_connection_retries").asLong()).isZero();
            }
        }
    }

    @Test
    void contentLengthErrorBodiesAreRecordedWithTheirMessage() throws Exception {
        Plan error = Plan.builder().fault(Fault.httpError(503, "ServiceUnavailable", "engine overloaded")).build();
        Script script = Script.builder().byIndex(i -> i % 5 == 4 ? error : Plan.fullSpeed()).build();
        ServerOptions options = ServerOptions.defaults().withConnection(ConnectionBehavior.keepAlive()
                .withErrorFraming(ConnectionBehavior.BodyFraming.CONTENT_LENGTH));
        try (ScriptedServer server = ScriptedServer.start(script, options)) {
            CliRun run = run(server, "--num-prompts", "20", "--max-concurrency", "1", "--warmup-requests", "0",
                    "--min-success-rate", "0.5");
            assertThat(run.exit()).as(run.err()).isZero();
            JsonNode s = summary("concurrency-1");
            assertThat(s.at("/servebench/failures_by_kind/http_status").asInt()).isEqualTo(4);
            assertThat(s.get("completed").asInt()).isEqualTo(16);
            assertThat(Files.readString(dir.resolve("concurrency-1.records.jsonl"))).contains("engine overloaded");
        }
    }

    @Test
    void failuresAboveTheThresholdMakeThePointInvalid() throws Exception {
        Plan error = Plan.builder().fault(Fault.httpError(500, "InternalServerError", "boom")).build();
        Script script = Script.builder().byIndex(i -> i % 2 == 1 ? error : Plan.fullSpeed()).build();
        try (ScriptedServer server = ScriptedServer.start(script)) {
            CliRun run = run(server, "--num-prompts", "20", "--max-concurrency", "1", "--warmup-requests", "0");
            assertThat(run.exit()).isEqualTo(BenchmarkRun.INVALID_POINT);
            assertThat(run.out()).contains("*** INVALID: 10 of 20 requests succeeded (50 % < 99 %)");
            assertThat(run.err()).contains("INVALID", "HTTP 500", "boom");
            JsonNode s = summary("concurrency-1");
            assertThat(s.at("/servebench/validity/valid").asBoolean()).isFalse();
            assertThat(s.at("/servebench/notes/0").asText()).startsWith("INVALID: 10 of 20");
        }
    }

    @Test
    void idleTimeoutClosesBetweenRequestsAreSkippedNotFailed() throws Exception {
        try (ScriptedServer server = server(ConnectionBehavior.keepAlive().withIdleTimeout(Duration.ofMillis(150)))) {
            // 4 req/s at concurrency 1: the connection is idle ~250 ms between requests, past the server's 150 ms.
            CliRun run = run(server, "--num-prompts", "6", "--max-concurrency", "1", "--request-rate", "4",
                    "--burstiness", "1000");
            assertThat(run.exit()).as(run.err()).isZero();
            JsonNode s = summary("rate-4-concurrency-1");
            assertThat(s.get("completed").asInt()).isEqualTo(6);
            assertThat(s.at("/servebench/client/stale_connections_skipped").asLong()
                    + s.at("/servebench/client/stale_connection_retries").asLong()).isPositive();
            assertThat(server.idleClosedConnections()).isPositive();
        }
    }

    @Test
    void aWarmupTheServerRejectsStopsTheRunWithItsMessage() throws Exception {
        Plan rejected = Plan.builder().fault(Fault.httpError(400, "BadRequestError",
                "prompt[0] must be a token id in [0, 2048)")).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(rejected))) {
            CliRun run = run(server, "--num-prompts", "10");
            assertThat(run.exit()).isEqualTo(BenchmarkRun.BAD_INPUT);
            assertThat(run.err()).contains("rejected the warm-up request", "HTTP 400",
                    "must be a token id in [0, 2048)", "--random-vocab-span");
            assertThat(run.out()).doesNotContain("Output token throughput");
        }
    }

    @Test
    void maxDurationCutsThePointAndSaysSo() throws Exception {
        Plan slow = Plan.builder().ttft(Duration.ofMillis(150)).gap(Duration.ofMillis(10)).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(slow))) {
            CliRun run = run(server, "--num-prompts", "40", "--max-concurrency", "1", "--max-duration", "1");
            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.out()).contains("*** load point cut at its time limit of 1 s");
            JsonNode s = summary("concurrency-1");
            JsonNode cut = s.at("/servebench/cut");
            long recorded = records("concurrency-1");
            assertThat(recorded + cut.get("not_sent").asInt()).isEqualTo(40);
            assertThat(cut.get("cancelled").asInt()).isBetween(0, 1);
            assertThat(s.get("duration").asDouble()).isLessThan(1.5);
        }
    }

    @Test
    void requestTimeoutFailsRequestsThatTakeTooLongInAll() throws Exception {
        Plan slow = Plan.builder().ttft(Duration.ofMillis(50)).gap(Duration.ofMillis(100)).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(slow))) {
            CliRun run = run(server, "--num-prompts", "4", "--max-concurrency", "4", "--warmup-requests", "0",
                    "--request-timeout", "0.3");
            assertThat(run.exit()).isEqualTo(BenchmarkRun.INVALID_POINT);
            JsonNode s = summary("concurrency-4");
            assertThat(s.at("/servebench/failures_by_kind/timeout").asInt()).isEqualTo(4);
            assertThat(Files.readString(dir.resolve("concurrency-4.records.jsonl"))).contains("request timeout");
        }
    }
}
