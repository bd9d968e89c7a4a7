package dev.servebench.cli;

import static dev.servebench.cli.CliRun.servebench;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.metric.MetricId;
import dev.servebench.server.EmbeddedTarget;
import dev.servebench.spec.AbsoluteExpectation;
import dev.servebench.spec.Comparison;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.Measurements;
import dev.servebench.spec.SourcePosition;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import dev.servebench.verdict.ExpectationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 14: text prompts' input counts, from the server where it reports them, named estimates where not. */
class InputTokenCountsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String ESTIMATED = "input tokens are estimated from the prompt's words: ";

    @TempDir
    Path dir;

    @Test
    void textPromptsToTheEmbeddedEngineCountTheServersPromptTokens() throws Exception {
        try (EmbeddedTarget server = EmbeddedTarget.start(new EmbeddedTarget.Options("127.0.0.1", 0, 4, 128,
                EmbeddedTarget.weights("f16"), 1, false))) {
            String url = server.baseUrl().toString();
            CliRun dataset = servebench("run", "--base-url", url, "--num-prompts", "8", "--max-concurrency", "4",
                    "--prompt-format", "text", "--random-input-len", "24", "--random-output-len", "8",
                    "--output-dir", dir.resolve("dataset").toString(), "--no-progress");
            CliRun usage = servebench("run", "--base-url", url, "--num-prompts", "8", "--max-concurrency", "4",
                    "--prompt-format", "text", "--random-input-len", "24", "--random-output-len", "8",
                    "--input-token-source", "usage", "--output-dir", dir.resolve("usage").toString(), "--no-progress");
            assertThat(dataset.exit()).as(dataset.err()).isZero();
            assertThat(usage.exit()).as(usage.err()).isZero();

            for (String source : new String[] {"dataset", "usage"}) {
                Path out = dir.resolve(source);
                JsonNode s = JSON.readTree(out.resolve("concurrency-4.summary.json").toFile());
                long promptTokens = 0;
                for (String line : Files.readAllLines(out.resolve("concurrency-4.records.jsonl"))) {
                    promptTokens += JSON.readTree(line).at("/usage/prompt_tokens").asLong();
                }
                double duration = s.get("duration").asDouble();
                long output = s.get("total_output_tokens").asLong();
                assertThat(metric(s, "server_input_tokens")).as(source).isEqualTo(promptTokens);
                assertThat(metric(s, "server_input_throughput")).as(source).isEqualTo(promptTokens / duration);
                assertThat(metric(s, "server_total_throughput")).as(source).isEqualTo((promptTokens + output) / duration);
                assertThat(metric(s, "prompt_usage_missing")).as(source).isZero();
                if (source.equals("usage")) {
                    assertThat(s.get("total_input_tokens").asLong()).isEqualTo(promptTokens);
                    assertThat(s.get("input_throughput").asDouble()).isEqualTo(promptTokens / duration);
                    assertThat(s.get("total_throughput").asDouble()).isEqualTo((promptTokens + output) / duration);
                    assertThat(s.at("/servebench/input_token_source").asText()).isEqualTo("server_usage");
                    assertThat(s.at("/servebench/metrics/total_throughput/token_basis").asText())
                            .isEqualTo("usage_prompt_tokens_and_output_length");
                    assertThat(s.at("/servebench/notes").toString()).doesNotContain(ESTIMATED);
                    assertThat(usage.out()).contains("Input token source:                      server usage.prompt_tokens");
                } else {
                    // SGLang's key keeps SGLang's meaning, labelled an estimate; the server's count is beside it.
                    assertThat(s.at("/servebench/input_token_source").asText()).isEqualTo("dataset");
                    assertThat(s.at("/servebench/prompt_lengths").asText()).isEqualTo("estimated");
                    assertThat(s.at("/servebench/metrics/input_throughput/token_basis").asText()).isEqualTo("prompt_length");
                    assertThat(s.at("/servebench/metrics/input_throughput/estimate").asText()).startsWith(ESTIMATED);
                    assertThat(s.at("/servebench/notes").toString()).contains(ESTIMATED + "the dataset's prompt_len of all 8");
                    assertThat(dataset.out()).contains(
                            "Input token source:                      dataset prompt_len (estimated from words)",
                            "Server input tokens (usage):             " + promptTokens,
                            "Note: " + ESTIMATED);
                }
            }
        }
    }

    @Test
    void aServerWithoutUsageGetsItsInputCountsLabelledEstimatesUpToTheVerdict() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.of(Plan.builder().usage(Plan.UsageMode.NEVER).build()))) {
            CliRun run = servebench("run", "--base-url", server.baseUri().toString(), "--num-prompts", "6",
                    "--prompt-format", "text", "--random-input-len", "16", "--random-output-len", "4",
                    "--input-token-source", "usage", "--max-concurrency", "2", "--output-dir", dir.toString(),
                    "--no-progress");
            assertThat(run.exit()).as(run.err()).isZero();
            JsonNode s = JSON.readTree(dir.resolve("concurrency-2.summary.json").toFile());
            String why = ESTIMATED + "6 of 6 requests had no usage.prompt_tokens";
            assertThat(s.at("/servebench/notes").toString()).contains(why);
            assertThat(s.at("/servebench/input_token_source_fallbacks").asInt()).isEqualTo(6);
            assertThat(metric(s, "prompt_usage_missing")).isEqualTo(6);
            assertThat(run.out()).contains("Note: " + why,
                    "Input token source:                      server usage.prompt_tokens (6 from dataset, estimated)");

            // A verdict reads the point's summary: a total-throughput expectation names the estimate.
            LoadPointKey point = LoadPointKey.concurrency(2);
            ExpectationReport report = ExpectationReport.judge(new AbsoluteExpectation(MetricId.TOTAL_THROUGHPUT,
                    Comparison.AT_LEAST, 1, MetricId.TOTAL_THROUGHPUT.unit(), point,
                    new SourcePosition(Path.of("spec.yaml"), 1, 1)), fromSummary(s, point));
            assertThat(report.message()).contains("at concurrency=2: total_throughput is an estimate: " + why);
            ExpectationReport output = ExpectationReport.judge(new AbsoluteExpectation(MetricId.OUTPUT_THROUGHPUT,
                    Comparison.AT_LEAST, 1, MetricId.OUTPUT_THROUGHPUT.unit(), point,
                    new SourcePosition(Path.of("spec.yaml"), 2, 1)), fromSummary(s, point));
            assertThat(output.message()).doesNotContain("is an estimate");
        }
    }

    private static double metric(JsonNode summary, String id) {
        return summary.at("/servebench/metrics/" + id + "/value").asDouble();
    }

    /** The measurements of one point as its summary file carries them: values, and why some are estimates. */
    private static Measurements fromSummary(JsonNode summary, LoadPointKey at) {
        return new Measurements() {
            @Override
            public OptionalDouble value(MetricId metric, LoadPointKey point) {
                JsonNode v = summary.at("/servebench/metrics/" + metric.id() + "/value");
                return point.equals(at) && v.isNumber() ? OptionalDouble.of(v.asDouble()) : OptionalDouble.empty();
            }

            @Override
            public Optional<String> estimate(MetricId metric, LoadPointKey point) {
                JsonNode why = summary.at("/servebench/metrics/" + metric.id() + "/estimate");
                return point.equals(at) && why.isTextual() ? Optional.of(why.asText()) : Optional.empty();
            }
        };
    }
}
