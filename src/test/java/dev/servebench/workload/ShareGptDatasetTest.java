package dev.servebench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShareGptDatasetTest {

    private static final Path SAMPLE = Path.of("fixtures", "sharegpt-sample.json");
    /** The sample's 20 rows minus one single-turn, one empty, one empty-prompt and one "Yes." answer. */
    private static final int VALID_ROWS = 16;

    @TempDir
    Path dir;

    @Test
    void loadsTheSampleSkippingInvalidRows() {
        List<PromptRequest> rows = ShareGptDataset.of(SAMPLE, 100).requests(1);
        assertThat(rows).hasSize(VALID_ROWS);
        assertThat(rows).extracting(PromptRequest::index).containsExactlyElementsOf(
                IntStream.range(0, VALID_ROWS).boxed().toList());
        List<String> prompts = rows.stream().map(row -> ((PromptInput.Text) row.prompt()).text()).toList();
        assertThat(prompts).doesNotHaveDuplicates()
                .contains("How long should I boil an egg if I want the yolk a little soft?",
                        // Roles are ignored, as in SGLang: a leading system turn is the prompt.
                        "You are a friendly cooking helper.")
                .noneMatch(p -> p.startsWith("Only one turn"))
                .noneMatch(String::isEmpty)
                .noneMatch(p -> p.startsWith("Is it fine to leave my laptop"));
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.promptLenExact()).isFalse();
            assertThat(row.promptLen()).isEqualTo(ShareGptDataset.estimateTokens(((PromptInput.Text) row.prompt()).text()));
            assertThat(row.promptLen()).isGreaterThanOrEqualTo(2);
            assertThat(row.outputLen()).isGreaterThanOrEqualTo(2);
        });
    }

    @Test
    void outputLengthIsTheSecondTurnsEstimate() {
        List<PromptRequest> rows = ShareGptDataset.of(SAMPLE, 100).requests(1);
        PromptRequest egg = rows.stream()
                .filter(row -> ((PromptInput.Text) row.prompt()).text().startsWith("How long should I boil"))
                .findFirst().orElseThrow();
        String answer = "For a soft but not runny yolk, lower the egg into water that is already boiling and keep it"
                + " there for about six and a half minutes. Then move it straight into cold water for a minute so it"
                + " stops cooking and is easier to peel.";
        assertThat(egg.outputLen()).isEqualTo(ShareGptDataset.estimateTokens(answer)).isEqualTo(Math.round(answer.length() / 4.0));
    }

    @Test
    void takesTheFirstNAfterASeededShuffle() {
        ShareGptDataset five = ShareGptDataset.of(SAMPLE, 5);
        assertThat(five.requests(7)).hasSize(5).isEqualTo(five.requests(7));
        assertThat(five.requests(7)).isNotEqualTo(five.requests(8));
        // The first five of a larger request are the same rows: the shuffle does not depend on N.
        assertThat(ShareGptDataset.of(SAMPLE, 10).requests(7).subList(0, 5)).isEqualTo(five.requests(7));
    }

    @Test
    void fixedOutputLengthReplacesTheEstimateAndItsFilter() {
        List<PromptRequest> rows = ShareGptDataset.of(SAMPLE, 100).withFixedOutputLen(1).requests(3);
        assertThat(rows).extracting(PromptRequest::outputLen).containsOnly(1);
        // The "Yes." row is now kept; its short answer no longer matters.
        assertThat(rows).hasSize(VALID_ROWS + 1);
    }

    @Test
    void contextLengthDropsLongRows() {
        int limit = 40;
        List<PromptRequest> rows = ShareGptDataset.of(SAMPLE, 100).withContextLen(limit).requests(3);
        assertThat(rows).isNotEmpty().hasSizeLessThan(VALID_ROWS)
                .allSatisfy(row -> assertThat(row.promptLen() + row.outputLen()).isLessThanOrEqualTo(limit));
    }

    @Test
    void estimatesAQuarterTokenPerCodePoint() {
        assertThat(ShareGptDataset.estimateTokens("")).isEqualTo(1);
        assertThat(ShareGptDataset.estimateTokens("Yes.")).isEqualTo(1);
        assertThat(ShareGptDataset.estimateTokens("abcdef")).isEqualTo(2);
        assertThat(ShareGptDataset.estimateTokens("abcdefghij")).isEqualTo(3);
        // Code points, not UTF-16 units: eight emoji are 16 chars.
        assertThat(ShareGptDataset.estimateTokens("😀".repeat(8))).isEqualTo(2);
    }

    @Test
    void malformedJsonNamesFileLineAndPath() throws IOException {
        Path file = write("broken.json", """
                [
                  {"id": "a", "conversations": [
                    {"from": "human", "value": "first question here"}
                    {"from": "gpt", "value": "missing comma above"}
                  ]}
                ]
                """);
        assertThatThrownBy(() -> ShareGptDataset.of(file, 1).requests(0))
                .isInstanceOf(DatasetException.class)
                .hasMessageStartingWith(file + ": malformed JSON at line 4, column 5 (in $[0].conversations[0]): ")
                .hasMessageContaining("Unexpected character");
    }

    @Test
    void truncatedFileIsMalformed() throws IOException {
        Path file = write("truncated.json", "[\n  {\"conversations\": [");
        assertThatThrownBy(() -> ShareGptDataset.of(file, 1).requests(0))
                .isInstanceOf(DatasetException.class)
                .hasMessageStartingWith(file + ": malformed JSON at line 2, column ")
                .hasMessageContaining("end-of-input")
                .hasMessageContaining("(start marker at line 2, column 21)")
                .hasMessageNotContaining("Source");
    }

    @Test
    void wrongShapesSayWhatWasExpected() throws IOException {
        assertError(write("object.json", "{\"conversations\": []}"),
                "line 1, column 1 ($): expected a JSON array of conversations, found an object");
        assertError(write("empty.json", ""),
                "line 1, column 1 ($): expected a JSON array of conversations, found the end of the file");
        assertError(write("row.json", "[\n  [1, 2]\n]"),
                "line 2, column 3 ($[0]): expected a conversation object, found an array");
        assertError(write("missing.json", "[\n  {\"id\": 1, \"conversations\": [{\"value\": \"ab\"}, {\"value\": \"cd\"}]},\n"
                        + "  {\"id\": 2, \"turns\": []}\n]"),
                "line 3, column 3 ($[1]): expected a field \"conversations\" (an array of turns)");
        assertError(write("turns.json", "[{\"conversations\": \"hello\"}]"),
                "line 1, column 20 ($[0].conversations): expected an array of turns, found a string");
        assertError(write("value.json", "[{\"conversations\": [\n  {\"from\": \"human\", \"value\": 42}]}]"),
                "line 2, column 30 ($[0].conversations[0].value): expected a string, found a number");
        assertError(write("novalue.json", "[{\"conversations\": [\n  {\"from\": \"human\"}]}]"),
                "line 2, column 3 ($[0].conversations[0]): expected a field \"value\" (a string)");
        assertError(write("trailing.json", "[]\n[]"),
                "line 2, column 1 ($): expected the end of the file after the top-level array, found an array");
    }

    @Test
    void missingFileAndNoUsableRowsAreErrors() throws IOException {
        Path absent = dir.resolve("absent.json");
        assertError(absent, "no such file");
        Path tiny = write("tiny.json", "[{\"conversations\": [{\"value\": \"hi\"}, {\"value\": \"ok\"}]},"
                + " {\"conversations\": [{\"value\": \"single\"}]}]");
        assertError(tiny, "no usable conversation: 1 have at least two turns, none passes the length filters"
                + " (prompt >= 2 estimated tokens, completion >= 2 estimated tokens)");
    }

    @Test
    void validatesParameters() {
        assertThatThrownBy(() -> ShareGptDataset.of(SAMPLE, 0)).hasMessage("numPrompts (0) must be >= 1");
        assertThatThrownBy(() -> ShareGptDataset.of(SAMPLE, 1).withFixedOutputLen(0))
                .hasMessage("fixedOutputLen (0) must be >= 1");
        assertThatThrownBy(() -> ShareGptDataset.of(SAMPLE, 1).withContextLen(-4))
                .hasMessage("contextLen (-4) must be >= 1");
        assertThatThrownBy(() -> ShareGptDataset.of(null, 1)).hasMessage("file");
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(dir.resolve(name), content);
    }

    private static void assertError(Path file, String message) {
        assertThatThrownBy(() -> ShareGptDataset.of(file, 1).requests(0))
                .isInstanceOf(DatasetException.class)
                .hasMessage(file + ": " + message)
                .satisfies(e -> assertThat(((DatasetException) e).file()).isEqualTo(file));
    }
}
