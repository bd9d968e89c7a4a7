package dev.servebench.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordJsonlTest {

    @TempDir
    Path dir;

    private static RequestRecord success() {
        return new RequestRecord(0, 128, 4, 0, 1_000, 2_000, 60_000_000,
                ChunkTimeline.of(new long[] {20_000_000, 30_000_000, 40_000_000, 50_000_000}, new int[] {0, 1, 2, 1}),
                Optional.of(new Usage(128, 4)), Outcome.SUCCESS);
    }

    private static RequestRecord failure() {
        return new RequestRecord(1, 64, 8, 5_000, 5_000, 6_000, 9_000,
                ChunkTimeline.empty(), Optional.empty(),
                new Outcome.Failure(FailureKind.HTTP_STATUS, "HTTP 429: {\"error\":\"slow\"}", 429));
    }

    @Test
    void linesCarrySglangFieldsInSecondsAndRawFactsInNanoseconds() throws Exception {
        JsonNode line = new ObjectMapper().readTree(RecordJsonl.toLine(success()));
        assertThat(line.get("success").asBoolean()).isTrue();
        assertThat(line.get("prompt_len").asInt()).isEqualTo(128);
        assertThat(line.get("output_len").asInt()).isEqualTo(4);
        assertThat(line.get("ttft").asDouble()).isEqualTo((30_000_000 - 2_000) / 1e9);
        // the multi-token event at 40 ms is split evenly over its 2 tokens, as SGLang's /generate path does
        assertThat(line.get("itl")).extracting(JsonNode::asDouble).containsExactly(0.005, 0.005, 0.01);
        assertThat(line.get("latency").asDouble()).isEqualTo((60_000_000 - 2_000) / 1e9);
        assertThat(line.get("start_time").asDouble()).isEqualTo(2e-6);
        assertThat(line.get("error").asText()).isEmpty();
        assertThat(line.get("ready_ns").asLong()).isEqualTo(1_000);
        assertThat(line.get("queue_time").asDouble()).isEqualTo(2e-6);
    }

    @Test
    void theRetokenizedCountIsWrittenOnlyWhenMeasuredAndOlderFilesStillRead() throws Exception {
        assertThat(RecordJsonl.toLine(success())).doesNotContain("retokenized");
        RequestRecord retokenized = success().withRetokenizedOutputLen(5);
        JsonNode line = new ObjectMapper().readTree(RecordJsonl.toLine(retokenized));
        assertThat(line.get("retokenized_output_len").asInt()).isEqualTo(5);

        Path file = dir.resolve("mixed.records.jsonl");
        // A line written before the field existed, one with it, one with it null.
        String old = RecordJsonl.toLine(success());
        Files.writeString(file, old + "\n" + RecordJsonl.toLine(retokenized).replace("\"index\":0", "\"index\":1") + "\n"
                + old.replace("\"index\":0", "\"index\":2").replace("{\"success\"", "{\"retokenized_output_len\":null,\"success\"")
                + "\n");
        List<RequestRecord> read = RecordJsonl.read(file);
        assertThat(read).extracting(RequestRecord::retokenizedOutputLen)
                .containsExactly(java.util.OptionalInt.empty(), java.util.OptionalInt.of(5), java.util.OptionalInt.empty());

        Files.writeString(file, RecordJsonl.toLine(retokenized).replace("\"retokenized_output_len\":5",
                "\"retokenized_output_len\":5.5") + "\n");
        assertThatThrownBy(() -> RecordJsonl.read(file)).hasMessageContaining(file + ":1")
                .hasMessageContaining("retokenized_output_len must be an integer, got 5.5");
    }

    @Test
    void roundTripsThroughTheSinkAndTheReader() throws Exception {
        Path file = dir.resolve("r.records.jsonl");
        try (RecordSink sink = new RecordSink(file)) {
            sink.accept(success());
            sink.accept(failure());
        }
        assertThat(RecordJsonl.read(file)).containsExactly(success(), failure());
        assertThat(Files.readAllLines(file).get(1)).contains("\"error\":\"HTTP_STATUS: HTTP 429");
    }

    @Test
    void aTruncatedLastLineFromAKilledRunIsSkipped() throws Exception {
        Path file = dir.resolve("killed.records.jsonl");
        String whole = RecordJsonl.toLine(success()) + "\n";
        Files.writeString(file, whole + RecordJsonl.toLine(failure()).substring(0, 40));
        assertThat(RecordJsonl.read(file)).containsExactly(success());
    }

    @Test
    void aBadLineInTheMiddleNamesFileAndLine() throws IOException {
        Path file = dir.resolve("bad.records.jsonl");
        Files.writeString(file, RecordJsonl.toLine(success()) + "\n{\"success\":true}\n" + RecordJsonl.toLine(failure()) + "\n");
        assertThatThrownBy(() -> RecordJsonl.read(file)).isInstanceOf(IOException.class)
                .hasMessageStartingWith(file + ":2: not a servebench request record")
                .hasMessageContaining("missing field");
    }

    @Test
    void readerRejectsContradictions() throws IOException {
        Path file = dir.resolve("contradiction.records.jsonl");
        Files.writeString(file, RecordJsonl.toLine(failure()).replace("\"success\":false", "\"success\":true") + "\n\n");
        assertThatThrownBy(() -> RecordJsonl.read(file)).hasMessageContaining("success contradicts failure");
    }

    @Test
    void validationNamesTheFieldAndValue() {
        assertThatThrownBy(() -> new RequestRecord(0, 1, 1, 10, 5, 20, 30, ChunkTimeline.empty(), Optional.empty(),
                Outcome.SUCCESS)).hasMessage("readyNanos (5) must be >= intendedNanos (10)");
        assertThatThrownBy(() -> ChunkTimeline.of(new long[] {5, 3}, new int[] {1, 1}))
                .hasMessage("arrivalNanos (3) is before the previous event (5)");
        assertThat(List.of(success().chunks().tokenEventCount(), success().chunks().firstTokenEvent()))
                .containsExactly(3, 1);
    }

    @Test
    void aLineOfAnotherRecordsFormatIsRefusedAndVersionOneLinesCarryNone() throws IOException {
        assertThat(RecordJsonl.toLine(success())).doesNotContain("format");
        Path file = dir.resolve("newer.records.jsonl");
        Files.writeString(file, RecordJsonl.toLine(success()).replace("{\"success\"",
                "{\"format\":\"servebench-records/2\",\"success\"") + "\n");
        assertThatThrownBy(() -> RecordJsonl.read(file)).hasMessageContaining(file + ":1")
                .hasMessageContaining("format servebench-records/2 is not servebench-records/1");
        Files.writeString(file, RecordJsonl.toLine(success()).replace("{\"success\"",
                "{\"format\":\"servebench-records/1\",\"success\"") + "\n");
        assertThat(RecordJsonl.read(file)).containsExactly(success());
    }
}
