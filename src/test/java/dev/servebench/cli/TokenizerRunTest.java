package dev.servebench.cli;

import static dev.servebench.cli.CliRun.servebench;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.servebench.client.ClientConfig;
import dev.servebench.client.Endpoint;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.load.LoadDriver;
import dev.servebench.load.LoadPointResult;
import dev.servebench.load.LoadProgress;
import dev.servebench.record.RequestRecord;
import dev.servebench.server.EmbeddedTarget;
import dev.servebench.workload.HfTokenizer;
import dev.servebench.workload.PromptRequest;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Optional;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 14, part 2: with {@code --tokenizer} pointing at the embedded model's tokenizer.json, text prompts arrive
 * at the real engine with exactly the client's counts, and the input metrics are exact and say so.
 */
class TokenizerRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static EmbeddedTarget server;

    @TempDir
    Path dir;

    @BeforeAll
    static void start() throws IOException {
        server = EmbeddedTarget.start(new EmbeddedTarget.Options("127.0.0.1", 0, 4, 256,
                EmbeddedTarget.weights("f16"), 1, false));
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void randomTextPromptsArriveWithExactlyTheRequestedPromptTokens() throws IOException {
        CliRun run = servebench("run", "--base-url", server.baseUrl().toString(), "--num-prompts", "12",
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
        CliRun run = servebench("run", "--base-url", server.baseUrl().toString(), "--dataset-name", "sharegpt",
                "--dataset-path", "fixtures/sharegpt-sample.json", "--sharegpt-output-len", "4", "--num-prompts", "8",
                "--max-concurrency", "4", "--tokenizer", server.tokenizerFile().toString(),
                "--output-dir", dir.toString(), "--no-progress");
        assertThat(run.exit()).as(run.err()).isZero();

        List<JsonNode> records = records(dir);
        assertThat(records).hasSize(8).allSatisfy(r -> assertThat(r.at("/usage/prompt_tokens").asInt())
                .isEqualTo(r.get("prompt_len").asInt()));
        assertExactInputCounts(dir, run, records);
    }

    /**
     * SGLang's retokenized count against the real engine. The engine streams exactly one vocabulary piece per
     * sampled token (byte tokens are banned), so usage.completion_tokens is the number of text deltas. Re-encoding
     * their concatenation need not give that number back: the tokenizer segments the text canonically (from each
     * {@code ▁} the longest piece chain, so a sampled {@code ▁ka} followed by {@code b} re-encodes as one
     * {@code ▁kab}), and its Llama normalizer prepends a {@code ▁} to the text. The exact relation, per request:
     * retokenized = the tokenizer's count, without special tokens, of the text the engine streamed, which this
     * test fetches again on its own (same prompt, greedy, alone on the engine) and reads with Jackson.
     */
    @Test
    void retokenizedCountsAreTheTokenizersCountOfTheStreamedText() throws Exception {
        List<String> prompts = List.of("The quick brown fox", "hello world", "a b c d e", "Once upon a time there",
                "servebench measures servers", "zebra kayak lorem ipsum");
        RequestBodies bodies = new RequestBodies(Endpoint.COMPLETIONS, Optional.empty(), true,
                JsonNodeFactory.instance.objectNode());
        List<PreparedRequest> prepared = new ArrayList<>();
        for (int i = 0; i < prompts.size(); i++) {
            prepared.add(bodies.prepare(i, PromptRequest.ofText(i, prompts.get(i), 4, 12)));
        }
        try (HfTokenizer tokenizer = HfTokenizer.load(server.tokenizerFile());
             StreamingClient client = new StreamingClient(new ClientConfig(server.baseUrl(), Endpoint.COMPLETIONS,
                     Optional.empty(), 1, Duration.ofSeconds(60)), NanoClock.startingNow())) {
            List<RequestRecord> records;
            try (LoadPointResult result = new LoadDriver(client, Optional.of(tokenizer)).run(prepared,
                    new long[prepared.size()], 1, r -> { }, LoadProgress.NONE)) {
                records = result.records();
            }
            long retokenized = 0;
            long usage = 0;
            HttpClient http = HttpClient.newHttpClient();
            for (RequestRecord record : records) {
                assertThat(record.succeeded()).as(record.outcome().toString()).isTrue();
                List<String> deltas = streamedTexts(http, prepared.get(record.index()).body());
                int completion = record.usage().orElseThrow().completionTokens();
                assertThat(deltas).as("one delta per sampled token").hasSize(completion);
                assertThat(record.retokenizedOutputLen()).as("request %d: %s", record.index(), deltas)
                        .hasValue(tokenizer.countText(String.join("", deltas)));
                retokenized += record.retokenizedOutputLen().getAsInt();
                usage += completion;
            }
            System.out.printf("embedded engine: retokenized %d vs usage %d completion tokens over %d requests%n",
                    retokenized, usage, records.size());
        }
    }

    /** The text deltas of one streamed completion, fetched without servebench's client and parsed by Jackson. */
    private static List<String> streamedTexts(HttpClient http, byte[] body) throws Exception {
        HttpResponse<java.util.stream.Stream<String>> response = http.send(HttpRequest.newBuilder(
                        server.baseUrl().resolve("/v1/completions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofLines());
        assertThat(response.statusCode()).isEqualTo(200);
        List<String> texts = new ArrayList<>();
        for (String line : response.body().toList()) {
            if (line.startsWith("data: ") && !line.equals("data: [DONE]")) {
                JsonNode choices = JSON.readTree(line.substring(6)).path("choices");
                if (!choices.isEmpty()) {
                    texts.add(choices.get(0).get("text").asText());
                }
            }
        }
        return texts;
    }

    @Test
    void aMissingTokenizerIsBadInputInOneLine() {
        CliRun run = servebench("run", "--base-url", server.baseUrl().toString(), "--prompt-format", "text",
                "--tokenizer", dir.resolve("absent").toString(), "--output-dir", dir.toString(), "--no-progress");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.err()).startsWith("servebench: tokenizer " + dir.resolve("absent") + ": no such file")
                .doesNotContain("Exception").hasLineCount(1);
    }

    /** total_input_tokens is the sum of the server's usage.prompt_tokens, named as counted by the tokenizer. */
    private static void assertExactInputCounts(Path dir, CliRun run, List<JsonNode> records) throws IOException {
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
        // The run's tokenizer also re-counted every output: the summary adds up what the records hold.
        assertThat(records).allSatisfy(r -> assertThat(r.get("retokenized_output_len").asInt()).isPositive());
        assertThat(s.get("total_output_tokens_retokenized").asLong())
                .isEqualTo(records.stream().mapToLong(r -> r.get("retokenized_output_len").asLong()).sum());
        assertThat(s.at("/servebench/metrics/retokenized_mismatches/value").asLong()).isEqualTo(records.stream()
                .filter(r -> r.get("retokenized_output_len").asInt() != r.at("/usage/completion_tokens").asInt()).count());
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
