package dev.servebench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.servebench.workload.RandomDataset.PromptFormat;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class RandomDatasetTest {

    @Test
    void lengthsStayWithinTheRatioBounds() {
        List<PromptRequest> rows = RandomDataset.of(2000, 100, 20, 0.5).requests(1);
        assertThat(rows).hasSize(2000);
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.promptLen()).isBetween(50, 100);
            assertThat(row.outputLen()).isBetween(10, 20);
        });
        // Both ends of the inclusive range occur.
        assertThat(rows).extracting(PromptRequest::promptLen).contains(50, 100);
        assertThat(rows).extracting(PromptRequest::outputLen).contains(10, 20);
    }

    @Test
    void ratioOneGivesFixedLengths() {
        assertThat(RandomDataset.of(300, 64, 17, 1.0).requests(3)).allSatisfy(row -> {
            assertThat(row.promptLen()).isEqualTo(64);
            assertThat(row.outputLen()).isEqualTo(17);
        });
    }

    @Test
    void ratioZeroIsUniformFromOneToL() {
        int n = 20_000;
        int maxLen = 1000;
        List<PromptRequest> rows = RandomDataset.of(n, maxLen, maxLen, 0.0).withFormat(PromptFormat.TEXT)
                .requests(11);
        double meanIn = rows.stream().mapToInt(PromptRequest::promptLen).average().orElseThrow();
        double meanOut = rows.stream().mapToInt(PromptRequest::outputLen).average().orElseThrow();
        // Standard error of the mean is about 2; 1.5% of 500.5 is 7.5.
        assertThat(meanIn).isCloseTo((maxLen + 1) / 2.0, within(0.015 * (maxLen + 1) / 2.0));
        assertThat(meanOut).isCloseTo((maxLen + 1) / 2.0, within(0.015 * (maxLen + 1) / 2.0));
        List<PromptRequest> small = RandomDataset.of(5000, 10, 10, 0.0).requests(12);
        assertThat(small).extracting(PromptRequest::promptLen).containsOnly(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    }

    @Test
    void lowerBoundIsAtLeastOne() {
        // (int)(3 * 0.2) = 0, raised to 1 as in SGLang.
        assertThat(RandomDataset.of(2000, 3, 3, 0.2).requests(4)).extracting(PromptRequest::promptLen)
                .containsOnly(1, 2, 3);
    }

    @Test
    void zeroLengthGivesZeros() {
        List<PromptRequest> rows = RandomDataset.of(50, 0, 0, 0.0).requests(5);
        assertThat(rows).allSatisfy(row -> {
            assertThat(row.promptLen()).isZero();
            assertThat(row.outputLen()).isZero();
        });
    }

    @Test
    void sameSeedSameRowsOtherSeedOtherRows() {
        RandomDataset dataset = RandomDataset.of(200, 128, 32, 0.0);
        assertThat(dataset.requests(42)).isEqualTo(dataset.requests(42));
        assertThat(dataset.requests(42)).isNotEqualTo(dataset.requests(43));
        RandomDataset text = dataset.withFormat(PromptFormat.TEXT);
        assertThat(text.requests(42)).isEqualTo(text.requests(42));
        assertThat(text.requests(42)).isNotEqualTo(text.requests(43));
    }

    @Test
    void lengthsDoNotDependOnThePromptFormat() {
        RandomDataset ids = RandomDataset.of(300, 128, 32, 0.0);
        RandomDataset text = ids.withFormat(PromptFormat.TEXT);
        assertThat(ids.requests(8)).extracting(PromptRequest::promptLen)
                .isEqualTo(text.requests(8).stream().map(PromptRequest::promptLen).toList());
        assertThat(ids.requests(8)).extracting(PromptRequest::outputLen)
                .isEqualTo(text.requests(8).stream().map(PromptRequest::outputLen).toList());
    }

    @Test
    void tokenIdsFollowTheOffsetPatternWithinTheVocabulary() {
        int span = 50;
        int base = 3;
        List<PromptRequest> rows = RandomDataset.of(500, 120, 4, 0.0).withVocabulary(span, base).requests(6);
        for (PromptRequest row : rows) {
            assertThat(row.index()).isEqualTo(rows.indexOf(row));
            assertThat(row.promptLenExact()).isTrue();
            int[] ids = ((PromptInput.TokenIds) row.prompt()).ids();
            assertThat(ids).hasSize(row.promptLen());
            assertThat(Arrays.stream(ids)).allSatisfy(id -> assertThat(id).isBetween(base, base + span - 1));
            for (int j = 1; j < ids.length; j++) {
                assertThat(ids[j] - base).isEqualTo((ids[j - 1] - base + 1) % span);
            }
        }
    }

    @Test
    void defaultVocabularyAvoidsLowIds() {
        List<PromptRequest> rows = RandomDataset.of(100, 256, 4, 0.0).requests(2);
        assertThat(rows).allSatisfy(row -> assertThat(Arrays.stream(((PromptInput.TokenIds) row.prompt()).ids()))
                .allSatisfy(id -> assertThat(id).isBetween(1000, 30_999)));
    }

    @Test
    void textPromptsAreSpacePrefixedWordsMarkedInexact() {
        List<PromptRequest> rows = RandomDataset.of(100, 40, 8, 0.0).withFormat(PromptFormat.TEXT).requests(7);
        for (PromptRequest row : rows) {
            assertThat(row.promptLenExact()).isFalse();
            String text = ((PromptInput.Text) row.prompt()).text();
            assertThat(text).startsWith(" ");
            List<String> words = Arrays.asList(text.substring(1).split(" "));
            assertThat(words).hasSize(row.promptLen());
            assertThat(PromptWords.WORDS).containsAll(words);
        }
    }

    @Test
    void validatesParameters() {
        assertThatThrownBy(() -> RandomDataset.of(10, 10, 10, 1.5))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("randomRangeRatio (1.5) must be in [0, 1]");
        assertThatThrownBy(() -> RandomDataset.of(10, 10, 10, -0.1))
                .hasMessage("randomRangeRatio (-0.1) must be in [0, 1]");
        assertThatThrownBy(() -> RandomDataset.of(10, 10, 10, Double.NaN))
                .hasMessage("randomRangeRatio (NaN) must be in [0, 1]");
        assertThatThrownBy(() -> RandomDataset.of(0, 10, 10, 0)).hasMessage("numPrompts (0) must be >= 1");
        assertThatThrownBy(() -> RandomDataset.of(1, -1, 10, 0)).hasMessage("inputLen (-1) must be >= 0");
        assertThatThrownBy(() -> RandomDataset.of(1, 10, -5, 0)).hasMessage("outputLen (-5) must be >= 0");
        RandomDataset ok = RandomDataset.of(1, 10, 10, 0);
        assertThatThrownBy(() -> ok.withVocabulary(0, 0)).hasMessage("vocabSpan (0) must be >= 1");
        assertThatThrownBy(() -> ok.withVocabulary(10, -1)).hasMessage("idBase (-1) must be >= 0");
        assertThatThrownBy(() -> ok.withVocabulary(10, Integer.MAX_VALUE))
                .hasMessage("idBase (2147483647) + vocabSpan (10) must not exceed 2147483648");
        assertThatThrownBy(() -> ok.withFormat(null)).hasMessage("format");
    }
}
