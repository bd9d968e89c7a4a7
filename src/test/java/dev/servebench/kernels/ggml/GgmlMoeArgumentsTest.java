package dev.servebench.kernels.ggml;

import static dev.servebench.kernels.ggml.Layer.E;
import static dev.servebench.kernels.ggml.Layer.H;
import static dev.servebench.kernels.ggml.Layer.I;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Bad input fails in Java with the argument named. ggml itself would abort the JVM ({@code GGML_ASSERT})
 * on most of these, so a passing test also shows that no native call was made with them.
 */
class GgmlMoeArgumentsTest {

    /** Fails the test if weights are converted although the arguments were already known to be bad. */
    static final ExpertWeights UNTOUCHABLE = new ExpertWeights() {
        @Override
        public void up(int expert, float[] out) {
            throw new AssertionError("weights requested before the arguments were checked");
        }

        @Override
        public void gate(int expert, float[] out) {
            up(expert, out);
        }

        @Override
        public void down(int expert, float[] out) {
            up(expert, out);
        }
    };

    static GgmlLibrary library;

    @BeforeAll
    static void load() {
        library = GgmlLibrary.load();
    }

    @Test
    void badDimensionsAreNamedBeforeAnyWeightIsConverted() {
        assertRejected(0, I, E, 4, 1, GgmlWeightType.F32, 1, "hidden = 0; expected at least 1");
        assertRejected(H, -3, E, 4, 1, GgmlWeightType.F32, 1, "inter = -3; expected at least 1");
        assertRejected(H, I, 0, 1, 1, GgmlWeightType.F32, 1, "experts = 0");
        assertRejected(H, I, E, E + 1, 1, GgmlWeightType.F32, 1, "topK = 17 exceeds experts = 16");
        assertRejected(H, I, E, 4, 0, GgmlWeightType.F32, 1, "tokens = 0");
        assertRejected(48, I, E, 4, 1, GgmlWeightType.Q4_0, 1, "hidden = 48 and inter = 64 must both be multiples of 32");
        assertRejected(H, 40, E, 4, 1, GgmlWeightType.Q4_0, 1, "multiples of 32");
        assertRejected(H, I, E, 4, 1, GgmlWeightType.F32, 0, "threads = 0; expected at least 1");
        assertRejected(H, I, E, 4, 1, GgmlWeightType.F32, 513, "at most 512");
        assertRejected(1 << 20, 1 << 12, E, 4, 1, GgmlWeightType.F32, 1, "inter × hidden = 4294967296 elements");
    }

    @Test
    void nullsAreNamed() {
        assertThatThrownBy(() -> new GgmlMoe(null, H, I, E, 4, 1, GgmlWeightType.F32, UNTOUCHABLE, 1))
                .isInstanceOf(NullPointerException.class).hasMessage("library");
        assertThatThrownBy(() -> new GgmlMoe(library, H, I, E, 4, 1, null, UNTOUCHABLE, 1))
                .isInstanceOf(NullPointerException.class).hasMessage("type");
        assertThatThrownBy(() -> new GgmlMoe(library, H, I, E, 4, 1, GgmlWeightType.F32, null, 1))
                .isInstanceOf(NullPointerException.class).hasMessage("weights");
        assertThatThrownBy(() -> new GgmlMoe(null, 4, 1, 1))
                .isInstanceOf(NullPointerException.class).hasMessage("experts");
    }

    @Test
    void wrongInputSizesNullsAndExpertIdsOutOfRangeAreNamed() {
        try (GgmlMoe moe = new GgmlMoe(library, H, I, E, 2, 3, GgmlWeightType.F32, Layer.WEIGHTS, 1)) {
            float[] x = new float[3 * H];
            int[] ids = {0, 1, 2, 3, 4, 5};
            float[] w = new float[6];
            assertThatThrownBy(() -> moe.setInputs(new float[3 * H - 1], ids, w))
                    .hasMessage("x has 767 elements; expected 768 (tokens × hidden)");
            assertThatThrownBy(() -> moe.setInputs(x, new int[5], w))
                    .hasMessage("ids has 5 elements; expected 6 (tokens × topK)");
            assertThatThrownBy(() -> moe.setInputs(x, ids, new float[7]))
                    .hasMessage("weights has 7 elements; expected 6 (tokens × topK)");
            assertThatThrownBy(() -> moe.setInputs(null, ids, w)).isInstanceOf(NullPointerException.class).hasMessage("x");
            assertThatThrownBy(() -> moe.setInputs(x, new int[] {0, 1, 2, 16, 4, 5}, w))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("ids[token 1][slot 1] = 16 is out of range; expected 0 <= id < 16 (experts)");
            assertThatThrownBy(() -> moe.setInputs(x, new int[] {0, 1, 2, 3, -1, 5}, w))
                    .hasMessageContaining("ids[token 2][slot 0] = -1 is out of range");
            assertThatThrownBy(moe::compute).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("before setInputs");
        }
    }

    @Test
    void shortHeapAndOutOfRangeSegmentsAreNamed() {
        try (GgmlMoe moe = new GgmlMoe(library, H, I, E, 2, 3, GgmlWeightType.F32, Layer.WEIGHTS, 1);
                Arena arena = Arena.ofConfined()) {
            MemorySegment x = arena.allocate(3L * H * 4);
            MemorySegment ids = arena.allocate(6L * 4);
            MemorySegment w = arena.allocate(6L * 4);
            assertThatThrownBy(() -> moe.setInputs(arena.allocate(3L * H * 4 - 4), ids, w))
                    .hasMessage("x holds 3068 bytes; expected at least 3072");
            assertThatThrownBy(() -> moe.setInputs(x, MemorySegment.ofArray(new int[6]), w))
                    .hasMessageContaining("ids is a heap segment");
            assertThatThrownBy(() -> moe.setInputs(x, ids, null)).isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("weights is null");
            ids.setAtIndex(JAVA_INT, 5, E);
            assertThatThrownBy(() -> moe.setInputs(x, ids, w))
                    .hasMessage("ids[token 2][slot 1] = 16 is out of range; expected 0 <= id < 16 (experts)");
        }
    }

    private static void assertRejected(int hidden, int inter, int experts, int topK, int tokens, GgmlWeightType type,
            int threads, String message) {
        assertThatThrownBy(() -> new GgmlMoe(library, hidden, inter, experts, topK, tokens, type, UNTOUCHABLE, threads))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(message);
    }
}
