package dev.servebench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.gguf.SpmVocabulary;
import dev.servebench.gguf.TokenizerJson;
import dev.servebench.workload.RandomDataset.PromptFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Datasets with the run's tokenizer: the embedded model's tokenizer.json, and fakes for odd tokenizers. */
class TokenizedDatasetsTest {

    private static final Path SAMPLE = Path.of("fixtures", "sharegpt-sample.json");

    @TempDir
    static Path dir;
    private static HfTokenizer embedded;

    @BeforeAll
    static void load() throws IOException {
        TokenizerJson.write(SpmVocabulary.build(2048), dir.resolve(HfTokenizer.FILE_NAME));
        embedded = HfTokenizer.load(dir);
    }

    @AfterAll
    static void close() {
        embedded.close();
    }

    @Test
    void randomTextPromptsHaveExactlyTheDrawnTokenCount() {
        RandomDataset plain = RandomDataset.of(300, 200, 8, 0.0).withFormat(PromptFormat.TEXT);
        List<PromptRequest> drawn = plain.requests(5);
        List<PromptRequest> rows = plain.withTokenizer(embedded).requests(5);

        assertThat(rows).hasSize(300);
        for (int i = 0; i < rows.size(); i++) {
            PromptRequest row = rows.get(i);
            String text = ((PromptInput.Text) row.prompt()).text();
            assertThat(row.promptLen()).as("row %d: the drawn length", i).isEqualTo(drawn.get(i).promptLen());
            assertThat(embedded.countPrompt(text)).as("row %d: %s", i, text).isEqualTo(row.promptLen());
            assertThat(row.promptLenExact()).isTrue();
            assertThat(row.outputLen()).isEqualTo(drawn.get(i).outputLen());
        }
        assertThat(rows).extracting(PromptRequest::promptLen).contains(1, 200);
        assertThat(plain.withTokenizer(embedded).requests(5)).as("same seed, same rows").isEqualTo(rows);
    }

    @Test
    void wordsOfSeveralTokensAndMergingFillersStillReachTheTarget() {
        // Each word is 3 tokens, "," merges into the text before it (0 tokens), a letter is 1.
        Tokenizer odd = new FakeTokenizer(text -> {
            int tokens = 1;
            for (String word : text.trim().split(" +")) {
                tokens += word.isEmpty() ? 0 : word.length() == 1 ? 1 : 3;
            }
            return tokens;
        });
        List<PromptRequest> rows = RandomDataset.of(50, 100, 4, 0.0).withFormat(PromptFormat.TEXT)
                .withTokenizer(odd).requests(9);

        assertThat(rows).allSatisfy(row -> assertThat(odd.countPrompt(((PromptInput.Text) row.prompt()).text()))
                .isEqualTo(row.promptLen()));
    }

    @Test
    void aLengthBelowTheSpecialTokensIsTheEmptyTextWithItsRealCount() {
        Tokenizer twoSpecial = new FakeTokenizer(text -> 2 + (text.isBlank() ? 0 : text.trim().split(" +").length));
        List<PromptRequest> rows = RandomDataset.of(20, 3, 4, 0.0).withFormat(PromptFormat.TEXT)
                .withTokenizer(twoSpecial).requests(1);

        assertThat(rows).filteredOn(row -> ((PromptInput.Text) row.prompt()).text().isEmpty())
                .isNotEmpty().allSatisfy(row -> assertThat(row.promptLen()).isEqualTo(2));
        assertThat(rows).filteredOn(row -> row.promptLen() == 3).isNotEmpty();
    }

    @Test
    void aTokenizerThatCannotBeFilledIsRefusedWithItsName() {
        Tokenizer coarse = new FakeTokenizer(text -> 1 + 5 * (text.isBlank() ? 0 : text.trim().split(" +").length));
        assertThatThrownBy(() -> RandomDataset.of(5, 8, 4, 1.0).withFormat(PromptFormat.TEXT).withTokenizer(coarse)
                .requests(1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("exactly 8 tokens").hasMessageContaining("fake");
    }

    @Test
    void shareGptLengthsAreTheTokenizersCountsOfPromptAndCompletion() {
        List<ShareGptReader.Exchange> exchanges = ShareGptReader.read(SAMPLE, true);
        List<PromptRequest> rows = ShareGptDataset.of(SAMPLE, 100).withTokenizer(embedded).requests(1);

        assertThat(rows).isNotEmpty().allSatisfy(row -> {
            String prompt = ((PromptInput.Text) row.prompt()).text();
            ShareGptReader.Exchange exchange = exchanges.stream().filter(e -> e.prompt().equals(prompt))
                    .findFirst().orElseThrow();
            assertThat(row.promptLen()).isEqualTo(embedded.countPrompt(prompt));
            assertThat(row.outputLen()).isEqualTo(embedded.countPrompt(exchange.completion().orElseThrow()));
            assertThat(row.promptLenExact()).isTrue();
            assertThat(row.promptLen()).isGreaterThanOrEqualTo(ShareGptDataset.MIN_LEN);
        });
        // The embedded vocabulary has few English words, so its counts are far above the estimate.
        List<PromptRequest> estimated = ShareGptDataset.of(SAMPLE, 100).requests(1);
        assertThat(rows.get(0).promptLen()).isGreaterThan(estimated.get(0).promptLen());
    }

    @Test
    void shareGptFiltersOnRealCountsAndSaysSo() throws IOException {
        Path file = dir.resolve("short.json");
        Files.writeString(file, """
                [{"conversations": [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "kabo"}]}]""");
        // "hi" is 1 token + BOS under a 1-token-per-word tokenizer: kept at 2; a context of 3 drops it.
        Tokenizer words = new FakeTokenizer(text -> 1 + text.trim().split(" +").length);
        assertThat(ShareGptDataset.of(file, 5).withTokenizer(words).requests(1)).hasSize(1);
        assertThatThrownBy(() -> ShareGptDataset.of(file, 5).withContextLen(3).withTokenizer(words).requests(1))
                .isInstanceOf(DatasetException.class)
                .hasMessageContaining("prompt >= 2 tokens, completion >= 2 tokens, prompt + output <= 3");
    }

    @Test
    void aMissingOrInvalidTokenizerIsAClearError() throws IOException {
        assertThatThrownBy(() -> HfTokenizer.load(dir.resolve("nope.json")))
                .isInstanceOf(TokenizerException.class).hasMessageContaining("nope.json: no such file")
                .hasMessageContaining("never downloaded");
        Path empty = Files.createDirectories(dir.resolve("model"));
        assertThatThrownBy(() -> HfTokenizer.load(empty))
                .isInstanceOf(TokenizerException.class).hasMessageContaining("holds no tokenizer.json");
        Path broken = Files.writeString(dir.resolve("broken.json"), "{\"model\": 3}");
        assertThatThrownBy(() -> HfTokenizer.load(broken))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("broken.json: not a usable HuggingFace tokenizer.json");
    }

    @Test
    void aModelDirectoryAndItsFileLoadTheSameTokenizer() {
        try (HfTokenizer file = HfTokenizer.load(dir.resolve(HfTokenizer.FILE_NAME))) {
            assertThat(file.file()).isEqualTo(embedded.file());
            assertThat(file.countPrompt(" kabo the")).isEqualTo(embedded.countPrompt(" kabo the"));
            assertThat(embedded.specialTokens()).as("the BOS").isEqualTo(1);
            assertThat(embedded.countText("")).isZero();
        }
    }

    /** Counts with a function; the same count with and without special tokens aside from one BOS. */
    private record FakeTokenizer(java.util.function.ToIntFunction<String> counter) implements Tokenizer {
        @Override
        public int countPrompt(String text) {
            return counter.applyAsInt(text);
        }

        @Override
        public int countText(String text) {
            return counter.applyAsInt(text) - counter.applyAsInt("");
        }

        @Override
        public String describe() {
            return "fake";
        }
    }
}
