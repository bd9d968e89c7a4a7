package dev.servebench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PromptRequestTest {

    @Test
    void tokenIdsAreCopiedInAndOut() {
        int[] source = {5, 6, 7};
        PromptInput.TokenIds ids = new PromptInput.TokenIds(source);
        source[0] = 99;
        assertThat(ids.ids()).containsExactly(5, 6, 7);
        ids.ids()[1] = 99;
        assertThat(ids.idAt(1)).isEqualTo(6);
        assertThat(ids.length()).isEqualTo(3);
    }

    @Test
    void tokenIdsCompareByContent() {
        assertThat(new PromptInput.TokenIds(new int[] {1, 2})).isEqualTo(new PromptInput.TokenIds(new int[] {1, 2}))
                .hasSameHashCodeAs(new PromptInput.TokenIds(new int[] {1, 2}))
                .isNotEqualTo(new PromptInput.TokenIds(new int[] {2, 1}));
    }

    @Test
    void tokenIdRowsHaveExactLengths() {
        PromptRequest row = PromptRequest.ofTokenIds(3, new int[] {10, 11, 12, 13}, 8);
        assertThat(row.promptLen()).isEqualTo(4);
        assertThat(row.promptLenExact()).isTrue();
        assertThat(row.prompt()).isInstanceOf(PromptInput.TokenIds.class);
    }

    @Test
    void textRowsAreEstimates() {
        PromptRequest row = PromptRequest.ofText(0, " the cat", 2, 16);
        assertThat(row.promptLenExact()).isFalse();
        assertThat(row.prompt()).isEqualTo(new PromptInput.Text(" the cat"));
    }

    @Test
    void validatesFields() {
        PromptInput text = new PromptInput.Text("hi");
        assertThatThrownBy(() -> new PromptRequest(-1, text, 1, false, 1)).hasMessage("index (-1) must be >= 0");
        assertThatThrownBy(() -> new PromptRequest(0, null, 1, false, 1)).hasMessage("prompt");
        assertThatThrownBy(() -> new PromptRequest(0, text, -2, false, 1)).hasMessage("promptLen (-2) must be >= 0");
        assertThatThrownBy(() -> new PromptRequest(0, text, 1, false, -3)).hasMessage("outputLen (-3) must be >= 0");
        PromptInput ids = new PromptInput.TokenIds(new int[] {1, 2});
        assertThatThrownBy(() -> new PromptRequest(0, ids, 3, true, 1))
                .hasMessage("promptLen (3) must equal the number of token ids (2)");
        assertThatThrownBy(() -> new PromptRequest(0, ids, 2, false, 1))
                .hasMessage("promptLenExact (false) must be true for token ids");
        assertThatThrownBy(() -> new PromptInput.Text(null)).hasMessage("text");
    }
}
