package dev.servebench.cli;

import static dev.servebench.cli.CliRun.servebench;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SGLang's retokenized output against the scripted server, whose token {@code j} reads {@code " t<j>"}: with a
 * word-level tokenizer every token is one word, so the retokenized count of each request is exactly its
 * completion tokens, on every endpoint, while the stream carries three tokens per event (so a count of events
 * or an appended /generate text would both be wrong).
 */
class RetokenizedRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PROMPTS = 10;
    private static final int OUTPUT = 8;

    @TempDir
    Path dir;

    private static Path wordLevelTokenizer() throws URISyntaxException {
        return Path.of(RetokenizedRunTest.class.getResource("word-level-tokenizer.json").toURI());
    }

    private CliRun run(ScriptedServer server, String backend, String... extra) {
        List<String> args = new java.util.ArrayList<>(List.of("run", "--base-url", server.baseUri().toString(),
                "--backend", backend, "--num-prompts", Integer.toString(PROMPTS), "--random-input-len", "16",
                "--random-output-len", Integer.toString(OUTPUT), "--random-range-ratio", "1", "--max-concurrency", "3",
                "--output-dir", dir.toString(), "--no-progress"));
        args.addAll(List.of(extra));
        return servebench(args.toArray(String[]::new));
    }

    private static ScriptedServer threeTokensPerEvent() {
        return ScriptedServer.start(Script.of(Plan.builder().gap(Duration.ofMillis(1)).tokensPerChunk(3).build()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sglang-oai", "sglang-oai-chat", "sglang"})
    void everyEndpointsTextIsRecountedExactly(String backend) throws Exception {
        try (ScriptedServer server = threeTokensPerEvent()) {
            CliRun run = run(server, backend, "--tokenizer", wordLevelTokenizer().toString());
            assertThat(run.exit()).as(run.err()).isZero();

            List<JsonNode> records = records();
            assertThat(records).hasSize(PROMPTS).allSatisfy(r -> {
                assertThat(r.get("retokenized_output_len").asInt()).isEqualTo(OUTPUT);
                assertThat(r.get("chunk_ns").size()).as("events, fewer than tokens").isLessThan(OUTPUT);
            });
            JsonNode s = summary();
            assertThat(s.get("total_output_tokens_retokenized").asLong()).isEqualTo((long) PROMPTS * OUTPUT);
            assertThat(s.has("output_throughput_retokenized")).as("SGLang does not write it").isFalse();
            double duration = s.get("duration").asDouble();
            assertThat(s.at("/servebench/metrics/output_throughput_retokenized/value").asDouble())
                    .isEqualTo(PROMPTS * OUTPUT / duration);
            assertThat(s.at("/servebench/metrics/output_throughput_retokenized/token_basis").asText())
                    .isEqualTo("retokenized_output");
            assertThat(s.at("/servebench/metrics/retokenized_mismatches/value").asInt()).isZero();
            assertThat(s.at("/servebench/retokenized_output").asText())
                    .isEqualTo("client tokenizer, " + PROMPTS + " successful requests");
            assertThat(run.out()).contains(
                    "Total generated tokens (retokenized):    " + PROMPTS * OUTPUT,
                    "Retokenized output throughput (tok/s):",
                    "Usage vs retokenized mismatches:         0");
        }
    }

    @Test
    void theRecordsAloneReproduceTheRetokenizedMetrics() throws Exception {
        try (ScriptedServer server = threeTokensPerEvent()) {
            assertThat(run(server, "sglang-oai", "--tokenizer", wordLevelTokenizer().toString()).exit()).isZero();
            CliRun recomputed = servebench("summarize", dir.resolve("concurrency-3.records.jsonl").toString());
            JsonNode metrics = JSON.readTree(recomputed.out());
            JsonNode summary = summary().at("/servebench/metrics");
            for (String id : List.of("total_output_tokens_retokenized", "output_throughput_retokenized",
                    "retokenized_mismatches")) {
                assertThat(metrics.at("/" + id + "/value")).as(id).isEqualTo(summary.at("/" + id + "/value"));
            }
        }
    }

    @Test
    void withoutATokenizerNothingIsKeptAndTheMetricsAreAbsent() throws Exception {
        try (ScriptedServer server = threeTokensPerEvent()) {
            CliRun run = run(server, "sglang-oai");
            assertThat(run.exit()).as(run.err()).isZero();

            assertThat(records()).noneMatch(r -> r.has("retokenized_output_len"));
            JsonNode s = summary();
            assertThat(s.has("total_output_tokens_retokenized")).isFalse();
            for (String id : List.of("total_output_tokens_retokenized", "output_throughput_retokenized",
                    "retokenized_mismatches")) {
                assertThat(s.at("/servebench/metrics/" + id).isMissingNode()).as(id).isTrue();
            }
            assertThat(s.at("/servebench/retokenized_output").asText()).startsWith("not measured (no client tokenizer");
            assertThat(run.out()).doesNotContain("(retokenized)", "Retokenized output throughput")
                    .containsPattern("Retokenized output: +not measured");
        }
    }

    private JsonNode summary() throws java.io.IOException {
        return JSON.readTree(dir.resolve("concurrency-3.summary.json").toFile());
    }

    private List<JsonNode> records() throws java.io.IOException {
        return Files.readAllLines(dir.resolve("concurrency-3.records.jsonl")).stream().map(line -> {
            try {
                return JSON.readTree(line);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).toList();
    }
}
