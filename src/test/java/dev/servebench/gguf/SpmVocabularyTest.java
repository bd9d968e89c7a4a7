package dev.servebench.gguf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SpmVocabularyTest {

    private final SpmVocabulary vocab = SpmVocabulary.build(2048);

    @Test
    void specialsThenBytesThenNormalPieces() {
        List<String> pieces = vocab.pieces();
        int[] types = vocab.types();

        assertThat(pieces.subList(0, 3)).containsExactly("<unk>", "<s>", "</s>");
        assertThat(types[0]).isEqualTo(SpmVocabulary.TYPE_UNKNOWN);
        assertThat(types[1]).isEqualTo(SpmVocabulary.TYPE_CONTROL);
        assertThat(types[2]).isEqualTo(SpmVocabulary.TYPE_CONTROL);
        for (int b = 0; b < 256; b++) {
            assertThat(types[3 + b]).isEqualTo(SpmVocabulary.TYPE_BYTE);
        }
        assertThat(pieces.get(3)).isEqualTo("<0x00>");
        assertThat(pieces.get(3 + '\n')).as("linefeed byte token").isEqualTo("<0x0A>");
        assertThat(pieces.get(258)).isEqualTo("<0xFF>");
        assertThat(pieces.get(259)).isEqualTo(SpmVocabulary.SPACE);
        for (int id = 259; id < 2048; id++) {
            assertThat(types[id]).isEqualTo(SpmVocabulary.TYPE_NORMAL);
            assertThat(vocab.scores()[id]).as("score = -rank").isEqualTo(-(id - 259));
        }
    }

    @Test
    void everyPieceIsReachableByMergesAndDecodesToDistinctText() {
        List<String> pieces = vocab.pieces();
        Set<String> normal = new HashSet<>(pieces.subList(259, pieces.size()));
        Set<String> decoded = new HashSet<>();
        for (String piece : normal) {
            assertThat(piece).doesNotContain(" ");
            assertThat(decoded.add(piece.replace(SpmVocabulary.SPACE, " "))).as("distinct text of %s", piece).isTrue();
            if (piece.length() > 2) {
                assertThat(normal).as("prefix of %s", piece).contains(piece.substring(0, piece.length() - 1));
            }
        }
        assertThat(pieces).doesNotHaveDuplicates();
    }

    @Test
    void doesNotDependOnAnythingButTheSize() {
        assertThat(SpmVocabulary.build(2048).pieces()).isEqualTo(vocab.pieces());
        assertThat(SpmVocabulary.build(1000).pieces()).isEqualTo(vocab.pieces().subList(0, 1000));
    }

    @Test
    void rejectsSizesThatCannotHoldTheFixedPieces() {
        assertThatThrownBy(() -> SpmVocabulary.build(100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size (100)");
    }
}
