package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.server.EmbeddedTarget;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 14, part 2: with {@code --tokenizer} pointing at the embedded model's tokenizer.json, text prompts arrive
 * at the real engine with exactly the client's counts, and the input metrics are exact and say so.
 */
class TokenizerRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static EmbeddedTarget server;

    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {}

    @BeforeAll
    static void start() throws IOException {
        server = EmbeddedTarget.start(new EmbeddedTarget.Options("127.0.0.1", 0, 4, 256,
                EmbeddedTarget.weights("f16"), 1, false));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Result servebench(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        int exit = cli.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }

    @Test
    void randomTextPromptsArriveWithExactlyTheRequestedPromptTokens() throws IOException {
        Result run = servebench("run", "--base-url", server.baseUrl().toString(), "--num-prompts", "12",
                "--max-concurrency", "4", "--prompt-format", "text", "--random-input-len", "48",
                "--random-range-ratio", "0.25", "--random-output-len", "4", "--seed", "3",
                "--tokenizer", server.tokenizerFile().toString(), "--output-dir", dir.toString(), "--no-progress");
        assertThat(run.exit()).as(run.err()).isZero();

        List<JsonNode> records = records(dir);
        assertThat(records).hasSize(12).allSatisfy(r -> assertThat(r.at("/usage/prompt_tokens").asInt())
                .as("server count of a prompt asked to be %d tokens", r.get("prompt_len").asInt())
                .isEqualTo(r.get("prompt_len").asInt()));
        assertThat(records).extracting(r -> r.get("prompt_len").asInt()).allSatisfy(len -> assertThat(len)
                .isBetween(12, 48)).as("lengths vary").containsAnyOf(12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30);
        assertExactInputCounts(dir, run, records);
    }

    @Test
    void shareGptLengthsEqualTheServersCounts() throws IOException {
        Result run = servebench("run", "--base-url", server.baseUrl().toString(), "--dataset-name", "sharegpt",
                "--dataset-path", "fixtures/sharegpt-sample.json", "--sharegpt-output-len", "4", "--num-prompts", "8",
                "--max-concurrency", "4", "--tokenizer", server.tokenizerFile().toString(),
                "--output-dir", dir.toString(), "--no-progress");
        assertThat(run.exit()).as(run.err()).isZero();

        List<JsonNode> records = records(dir);
        assertThat(records).hasSize(8).allSatisfy(r -> assertThat(r.at("/usage/prompt_tokens").asInt())
                .isEqualTo(r.get("prompt_len").asInt()));
        assertExactInputCounts(dir, run, records);
    }

    @Test
    void aMissingTokenizerIsBadInputInOneLine() {
        Result run = servebench("run", "--base-url", server.baseUrl().toString(), "--prompt-format", "text",
                "--tokenizer", dir.resolve("absent").toString(), "--output-dir", dir.toString(), "--no-progress");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("servebench: tokenizer " + dir.resolve("absent") + ": no such file")
                .doesNotContain("Exception").hasLineCount(1);
    }

    /** total_input_tokens is the sum of the server's usage.prompt_tokens, named as counted by the tokenizer. */
    private static void assertExactInputCounts(Path dir, Result run, List<JsonNode> records) throws IOException {
        JsonNode s = JSON.readTree(dir.resolve("concurrency-4.summary.json").toFile());
        long serverPromptTokens = records.stream().mapToLong(r -> r.at("/usage/prompt_tokens").asLong()).sum();
        assertThat(s.get("total_input_tokens").asLong()).isEqualTo(serverPromptTokens);
        assertThat(s.at("/servebench/metrics/server_input_tokens/value").asLong()).isEqualTo(serverPromptTokens);
        assertThat(s.at("/servebench/metrics/prompt_token_mismatches/value").asInt()).isZero();
        assertThat(s.at("/servebench/prompt_lengths").asText()).isEqualTo("tokenized");
        assertThat(s.at("/servebench/input_token_source").asText()).isEqualTo("dataset");
        assertThat(s.at("/servebench/metrics/input_throughput/estimate").isMissingNode()).isTrue();
        assertThat(s.at("/servebench/notes").toString()).doesNotContain("estimated");
        assertThat(run.out()).contains(
                "Input token source:                      dataset prompt_len (counted by the client tokenizer)",
                "Total input tokens:                      " + serverPromptTokens);
    }

    private static List<JsonNode> records(Path dir) throws IOException {
        return Files.readAllLines(dir.resolve("concurrency-4.records.jsonl")).stream().map(line -> {
            try {
                return JSON.readTree(line);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }).toList();
    }
}
