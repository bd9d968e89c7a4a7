package dev.servebench.results;

import static dev.servebench.metric.Records.aRequest;

import dev.servebench.client.IoTransport;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.load.ClientUsage;
import dev.servebench.load.ConnectionCounts;
import dev.servebench.load.LoadPoint;
import dev.servebench.load.LoadPointCut;
import dev.servebench.metric.MetricOptions;
import dev.servebench.metric.Records;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.metric.TokenSource;
import dev.servebench.record.FailureKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary file: SGLang's keys where SGLang's readers look, servebench's under its name, one record both ways. */
class SummaryFileTest {

    private static final RunDescription RUN = new RunDescription("http://127.0.0.1:1", "sglang", "m", "random", 8,
            3, 0.0, 3, 7, true, TokenSource.SERVER_USAGE, "nightly", "url");

    /** Two successes (3 and 2 tokens) and one refused connection over 4 s. */
    private static final ServingSummary TWO_OF_THREE = SummaryCalculator.compute(Records.inOrder(
                    aRequest().prompt(100).sentAt(0).chunksAt(ms(500), ms(1000), ms(1500)).endAt(ms(2000))
                            .usage(100, 3),
                    aRequest().prompt(50).sentAt(ms(250)).chunksAt(ms(750), ms(1250)).endAt(ms(1500)).usage(50, 2),
                    aRequest().prompt(70).sentAt(ms(500)).endAt(ms(500)).failed(FailureKind.CONNECT)),
            4_000_000_000L, MetricOptions.defaults());

    private static final ClientUsage CLIENT = new ClientUsage(2_000_000_000L, 4_000_000_000L, 4096, 5, 0, IoTransport.EPOLL);

    private static PointContext context(double minSuccess, Optional<LoadPointCut> cut) {
        return new PointContext(new SuccessShare(3, 2, 0, minSuccess), cut, new ConnectionCounts(4, 1, 2, 0),
                List.of("connections", "sse parsing"), List.of("token ids assumed in [0, 2048)"));
    }

    private static SummaryFile closedLoop(PointContext context) {
        return SummaryFile.of(RUN, new LoadPoint(4, Double.POSITIVE_INFINITY, 1.0), TWO_OF_THREE, CLIENT, context,
                Optional.empty());
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    @Test
    void sglangsKeysAreAtTheTopBeforeServebenchsSection() {
        ObjectNode json = FormatJson.tree(closedLoop(context(0.5, Optional.empty())));

        assertThat(keys(json)).startsWith("format", "tag", "backend", "dataset_name", "request_rate",
                "max_concurrency", "random_input_len", "random_output_len", "random_range_ratio").endsWith("servebench")
                .contains("completed", "output_throughput", "total_throughput", "p99_itl_ms", "duration");
        assertThat(json.get("format").asText()).isEqualTo("servebench-summary/1");
        assertThat(json.get("request_rate").asText()).isEqualTo("inf");
        assertThat(json.get("max_concurrency").asInt()).isEqualTo(4);
        assertThat(json.get("completed").isIntegralNumber()).as("a count is written as an integer").isTrue();
        assertThat(json.get("completed").asInt()).isEqualTo(2);
        assertThat(json.get("output_throughput").asDouble()).isEqualTo(5 / 4.0);
        JsonNode ours = json.get("servebench");
        assertThat(keys(ours)).containsExactly("load_point", "run", "token_source", "requests",
                "benchmark_duration_ns", "token_source_fallbacks", "input_token_source",
                "input_token_source_fallbacks", "prompt_lengths", "input_tokens", "successes_without_event",
                "retokenized_output", "failures_by_kind", "client", "metrics", "notes", "validity", "cut");
        assertThat(ours.get("cut").isNull()).as("not cut: null, not absent").isTrue();
        assertThat(ours.at("/failures_by_kind/connect").asInt()).isEqualTo(1);
        assertThat(ours.at("/metrics/output_throughput/value").asDouble()).isEqualTo(5 / 4.0);
        assertThat(ours.at("/metrics/output_throughput/unit").asText()).isEqualTo("tok/s");
        assertThat(ours.at("/client/stale_connection_retries").asInt()).isEqualTo(2);
        assertThat(ours.at("/client/warmed_before_start/1").asText()).isEqualTo("sse parsing");
        assertThat(ours.at("/validity/valid").asBoolean()).isTrue();
        assertThat(ours.at("/notes").toString()).contains("token ids assumed in [0, 2048)");
    }

    @Test
    void readingAndWritingAgainGivesTheSameBytes(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("c4.summary.json");
        SummaryFile written = closedLoop(context(0.5, Optional.of(new LoadPointCut(Duration.ofSeconds(90), 7, 1))));
        written.write(file);

        SummaryFile read = SummaryFile.read(file);

        assertThat(read.text()).isEqualTo(Files.readString(file));
        assertThat(read.result("output_throughput")).hasValue(5 / 4.0);
        assertThat(read.result("request_goodput")).as("not measured: absent, not 0").isEmpty();
        assertThat(read.servebench().metric("failed")).hasValue(1);
        assertThat(read.servebench().cut().notSent()).isEqualTo(7);
        assertThat(read.servebench().notes()).anyMatch(n -> n.startsWith("load point cut at its time limit of 90 s"));
    }

    @Test
    void anOpenLoopPointHasItsRateAndNoConcurrencyLimit() {
        ObjectNode json = FormatJson.tree(SummaryFile.of(RUN, new LoadPoint(0, 2.5, 1.0), TWO_OF_THREE, CLIENT,
                context(0.5, Optional.empty()), Optional.empty()));

        assertThat(json.get("request_rate").asDouble()).isEqualTo(2.5);
        assertThat(json.has("max_concurrency")).isTrue();
        assertThat(json.get("max_concurrency").isNull()).as("SGLang writes None").isTrue();
        assertThat(json.at("/servebench/load_point/request_rate").asText()).isEqualTo("2.5");
    }

    @Test
    void anInvalidPointSaysSoInItsFirstNote() {
        SummaryFile summary = closedLoop(context(0.99, Optional.empty()));

        assertThat(summary.servebench().validity().valid()).isFalse();
        assertThat(summary.servebench().notes().getFirst())
                .isEqualTo("INVALID: 2 of 3 requests succeeded (66.7 % < 99 %): the numbers below do not describe the server");
    }

    @Test
    void aSummaryWrittenBeforeItStatedItsFormatReadsAndANewerOneIsRefused(@TempDir Path dir) throws IOException {
        ObjectNode json = FormatJson.tree(closedLoop(context(0.5, Optional.empty())));
        json.remove("format");
        Path older = dir.resolve("older.summary.json");
        Files.writeString(older, json.toString());
        assertThat(SummaryFile.read(older).format()).isEqualTo("servebench-summary/1");

        json.put("format", "servebench-summary/2");
        Path newer = dir.resolve("newer.summary.json");
        Files.writeString(newer, json.toString());
        assertThatThrownBy(() -> SummaryFile.read(newer)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(newer.toString())
                .hasMessageContaining("format servebench-summary/2 is newer than this servebench");
    }

    @Test
    void aRequestRateThatIsNeitherANumberNorInfIsRefusedWithTheFileNamed(@TempDir Path dir) throws IOException {
        ObjectNode json = FormatJson.tree(closedLoop(context(0.5, Optional.empty())));
        json.put("request_rate", "fast");
        Path file = dir.resolve("bad.summary.json");
        Files.writeString(file, json.toString());

        assertThatThrownBy(() -> SummaryFile.read(file)).hasMessageStartingWith(file.toString())
                .hasMessageContaining("request_rate must be a number or \"inf\", found fast");
    }
}
