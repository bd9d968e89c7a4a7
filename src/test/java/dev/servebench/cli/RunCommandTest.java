package dev.servebench.cli;

import static dev.servebench.cli.CliRun.servebench;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.servebench.testserver.Fault;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code servebench run} end to end against the scripted server, through the real command line. */
class RunCommandTest {

    private static final String SECRET = "sk-test-do-not-leak-4242";
    /** Strict JSON: a bare Infinity or NaN would fail to parse. */
    private static final ObjectMapper STRICT = JsonMapper.builder().disable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    @TempDir
    Path dir;

    @Test
    void sweepWritesNamedSummariesAndRecordsPerLoadPoint() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.builder().gap(java.time.Duration.ofMillis(1)).build()))) {
            CliRun run = servebench("run", "--base-url", server.baseUri().toString(), "--num-prompts", "12",
                    "--random-input-len", "16", "--random-output-len", "8", "--random-range-ratio", "1",
                    "--max-concurrency", "1,4", "--api-key", SECRET, "--output-dir", dir.toString(), "--no-progress");
            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.out()).contains(" Serving Benchmark Result ", "Output token throughput (tok/s):",
                    "Total token throughput (tok/s):", "Peak output token throughput (tok/s):", "Max request concurrency:",
                    "P99 ITL (ms):", "Output token source:");
            assertThat(run.out()).doesNotContainPattern("(?m)^tok/s|[^(]tok/s[^)]");
            for (String label : List.of("concurrency-1", "concurrency-4")) {
                JsonNode summary = STRICT.readTree(dir.resolve(label + ".summary.json").toFile());
                assertThat(summary.get("completed").asInt()).isEqualTo(12);
                assertThat(summary.get("total_output_tokens").asInt()).isEqualTo(12 * 8);
                assertThat(summary.get("total_input_tokens").asInt()).isEqualTo(12 * 16);
                assertThat(summary.get("request_rate").asText()).isEqualTo("inf");
                assertThat(summary.at("/servebench/metrics/output_throughput/unit").asText()).isEqualTo("tok/s");
                assertThat(summary.at("/servebench/metrics/output_throughput/formula").asText()).contains("total_output_tokens");
                List<String> lines = Files.readAllLines(dir.resolve(label + ".records.jsonl"));
                assertThat(lines).hasSize(12);
                JsonNode first = STRICT.readTree(lines.get(0));
                assertThat(first.fieldNames()).toIterable().contains("success", "prompt_len", "output_len", "ttft", "itl",
                        "latency", "start_time", "error");
                assertThat(first.get("itl")).hasSize(7);
            }
            assertThat(STRICT.readTree(dir.resolve("concurrency-4.summary.json").toFile()).get("max_concurrency").asInt()).isEqualTo(4);
            assertNoSecretAnywhere(run);
        }
    }

    @Test
    void recordsAloneReproduceEveryMetricOfTheSummary() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.builder().gap(java.time.Duration.ofMillis(1)).build()))) {
            CliRun run = servebench("run", "--base-url", server.baseUri().toString(), "--num-prompts", "10",
                    "--random-input-len", "32", "--random-output-len", "16", "--max-concurrency", "3",
                    "--output-dir", dir.toString(), "--no-progress");
            assertThat(run.exit()).as(run.err()).isZero();
            JsonNode live = STRICT.readTree(dir.resolve("concurrency-3.summary.json").toFile()).at("/servebench/metrics");
            CliRun recomputed = servebench("summarize", dir.resolve("concurrency-3.records.jsonl").toString());
            assertThat(recomputed.exit()).as(recomputed.err()).isZero();
            assertThat(STRICT.readTree(recomputed.out())).isEqualTo(live);
        }
    }

    @Test
    void withoutBaseUrlTheEmbeddedEngineIsMeasured() throws Exception {
        CliRun run = servebench("run", "--num-prompts", "8", "--max-concurrency", "4", "--random-input-len", "16",
                "--random-output-len", "8", "--random-range-ratio", "1", "--output-dir", dir.toString(), "--no-progress");
        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.err()).contains("starting the embedded MoE engine (f16, 4 slots, 25 tokens each)");
        JsonNode summary = STRICT.readTree(dir.resolve("concurrency-4.summary.json").toFile());
        assertThat(summary.get("completed").asInt()).isEqualTo(8);
        // ignore_eos: exactly max_tokens chunks per stream, and the server's usage agrees with the chunk count
        assertThat(summary.get("total_output_tokens").asInt()).isEqualTo(8 * 8);
        assertThat(summary.at("/servebench/metrics/token_count_mismatches/value").asInt()).isZero();
        assertThat(summary.at("/servebench/metrics/usage_missing/value").asInt()).isZero();
        assertThat(summary.at("/servebench/run/target").asText()).isEqualTo("embedded");
        for (String line : Files.readAllLines(dir.resolve("concurrency-4.records.jsonl"))) {
            JsonNode record = STRICT.readTree(line);
            assertThat(record.get("chunk_output_tokens").asInt()).isEqualTo(8);
            assertThat(record.at("/usage/completion_tokens").asInt()).isEqualTo(8);
            assertThat(record.at("/usage/prompt_tokens").asInt()).isEqualTo(16 + 1); // the BOS the engine adds
        }
    }

    @Test
    void aServerThatStatesItsVocabularyGetsTokenIdsItAccepts() throws Exception {
        // servebench serve's vocabulary is 2,048 ids; the default range [1000, 31000) would be rejected (HTTP 400).
        try (dev.servebench.server.EmbeddedTarget server = dev.servebench.server.EmbeddedTarget.start(
                new dev.servebench.server.EmbeddedTarget.Options("127.0.0.1", 0, 4, 64,
                        dev.servebench.server.EmbeddedTarget.weights("f16"), 1, false))) {
            CliRun run = servebench("run", "--base-url", server.baseUrl().toString(), "--num-prompts", "8",
                    "--max-concurrency", "4", "--random-input-len", "16", "--random-output-len", "8",
                    "--output-dir", dir.toString(), "--no-progress");
            assertThat(run.exit()).as(run.err()).isZero();
            JsonNode summary = STRICT.readTree(dir.resolve("concurrency-4.summary.json").toFile());
            assertThat(summary.get("completed").asInt()).isEqualTo(8);
            assertThat(summary.at("/servebench/notes").toString())
                    .contains("random prompt token ids drawn from [256, 2048): the server's vocabulary of 2048 ids");
        }
    }

    @Test
    void aServerThatDoesNotStateItsVocabularyGetsTheAssumedRangeNamed() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.fullSpeed()))) {
            CliRun run = servebench("run", "--base-url", server.baseUri().toString(), "--num-prompts", "4",
                    "--random-input-len", "8", "--random-output-len", "4", "--output-dir", dir.toString(),
                    "--no-progress");
            assertThat(run.exit()).as(run.err()).isZero();
            assertThat(run.out()).contains("Note: random prompt token ids drawn from [1000, 31000): assumed",
                    "--random-token-id-base/--random-vocab-span, or --prompt-format text");
        }
    }

    @Test
    void everyRequestFailingReportsZerosWithAMessageAndExitCode3() throws Exception {
        Plan broken = Plan.builder().fault(Fault.httpError(500, "InternalServerError", "model crashed")).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(broken))) {
            CliRun run = servebench("run", "--base-url", server.baseUri().toString(), "--num-prompts", "5",
                    "--random-input-len", "8", "--random-output-len", "4", "--output-dir", dir.toString(), "--no-progress");
            assertThat(run.exit()).isEqualTo(BenchmarkRun.INVALID_POINT);
            assertThat(run.out()).contains("Successful requests:                     0", "Failed (http_status):",
                    "every request failed", "*** INVALID: 0 of 5 requests succeeded (0 % < 99 %)");
            assertThat(run.err()).contains("warm-up", "HTTP 500", "model crashed");
            JsonNode summary = STRICT.readTree(dir.resolve("concurrency-unlimited.summary.json").toFile());
            assertThat(summary.get("output_throughput").asDouble()).isZero();
            assertThat(summary.at("/servebench/failures_by_kind/http_status").asInt()).isEqualTo(5);
            assertThat(Files.readAllLines(dir.resolve("concurrency-unlimited.records.jsonl")))
                    .hasSize(5).allSatisfy(line -> assertThat(line).contains("\"success\":false", "HTTP 500"));
        }
    }

    @Test
    void unreachableServerIsOneClearLineAndExitCode2() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        CliRun run = servebench("run", "--base-url", "http://127.0.0.1:" + port, "--api-key", SECRET,
                "--output-dir", dir.toString());
        assertThat(run.exit()).isEqualTo(BenchmarkRun.UNREACHABLE);
        assertThat(run.err().strip()).isEqualTo("servebench: cannot reach http://127.0.0.1:" + port + ": connection refused");
        assertThat(run.out()).isEmpty();
        assertNoSecretAnywhere(run);
    }

    @Test
    void badOptionsNameTheOptionAndWhatWasExpected() {
        assertThat(servebench("run", "--backend", "tgi").err()).contains("--backend", "unknown backend 'tgi'", "sglang-oai");
        assertThat(servebench("run", "--goodput", "ttft:fast").err()).contains("--goodput", "not a number of milliseconds");
        assertThat(servebench("run", "--request-rate", "-3").err()).contains("--request-rate", "must be > 0");
        assertThat(servebench("run", "--dataset-name", "sharegpt").err()).contains("needs --dataset-path");
        assertThat(servebench("run", "--backend", "openai-chat", "--prompt-format", "ids").err())
                .contains("accepts text prompts only");
        assertThat(servebench("summarize", dir.resolve("missing.jsonl").toString()).err()).contains("missing.jsonl");
    }

    private void assertNoSecretAnywhere(CliRun run) throws Exception {
        assertThat(run.out()).doesNotContain(SECRET);
        assertThat(run.err()).doesNotContain(SECRET);
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(file)).as(file.toString()).doesNotContain(SECRET);
            }
        }
    }
}
