package dev.servebench.kernels.allreduce;

import static dev.servebench.kernels.allreduce.AllreduceAlgorithm.ONE_SHOT;
import static dev.servebench.kernels.allreduce.AllreduceAlgorithm.RING;
import static dev.servebench.kernels.allreduce.AllreduceAlgorithm.TWO_SHOT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.kernels.KernelLibrary;
import java.lang.invoke.MethodHandle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class AllreduceDispatchTest {

    private static final long KIB = 1024;
    private static final long MIB = 1024 * KIB;
    private static final long DEFAULT = AllreduceDispatch.DEFAULT_CUSTOM_MAX_BYTES;

    @Test
    void followsVllmsCustomAllreduceRules() {
        assertThat(AllreduceDispatch.choose(2, 12 * KIB, DEFAULT)).isEqualTo(ONE_SHOT);
        assertThat(AllreduceDispatch.choose(2, 8 * MIB - 16, DEFAULT)).as("two ranks: always one stage").isEqualTo(ONE_SHOT);
        assertThat(AllreduceDispatch.choose(2, 8 * MIB, DEFAULT)).as("not below max_size: NCCL").isEqualTo(RING);
        assertThat(AllreduceDispatch.choose(4, 512 * KIB - 16, DEFAULT)).isEqualTo(ONE_SHOT);
        assertThat(AllreduceDispatch.choose(4, 512 * KIB, DEFAULT)).isEqualTo(TWO_SHOT);
        assertThat(AllreduceDispatch.choose(3, 300 * KIB, DEFAULT)).isEqualTo(ONE_SHOT);
        assertThat(AllreduceDispatch.choose(5, 256 * KIB - 16, DEFAULT)).isEqualTo(ONE_SHOT);
        assertThat(AllreduceDispatch.choose(8, 256 * KIB, DEFAULT)).isEqualTo(TWO_SHOT);
        assertThat(AllreduceDispatch.choose(8, 8 * MIB - 16, DEFAULT)).isEqualTo(TWO_SHOT);
        assertThat(AllreduceDispatch.choose(8, 8 * MIB, DEFAULT)).isEqualTo(RING);
        assertThat(AllreduceDispatch.choose(8, 24, DEFAULT)).as("size % 16 != 0: NCCL").isEqualTo(RING);
        assertThat(AllreduceDispatch.choose(8, 0, DEFAULT)).isEqualTo(ONE_SHOT);
        assertThat(AllreduceDispatch.choose(8, 1 * MIB, 1 * MIB)).as("SM100 8-rank limit").isEqualTo(RING);
        assertThat(AllreduceDispatch.choose(2, 0, 0)).as("custom allreduce off").isEqualTo(RING);
        assertThat(AllreduceDispatch.resolve(AllreduceAlgorithm.AUTO, 8, 12 * KIB)).isEqualTo(ONE_SHOT);
        assertThat(AllreduceDispatch.resolve(RING, 8, 12 * KIB)).isEqualTo(RING);
    }

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void theNativeRuleIsTheJavaRule(KernelLibrary.Variant variant) {
        NativeAllreduce allreduce = new NativeAllreduce(KernelLibrary.load(variant));
        long[] limits = {0, 16, 256 * KIB, 1 * MIB, DEFAULT, 64 * MIB};
        long[] bytes = {0, 8, 16, 24, 12 * KIB, 256 * KIB - 16, 256 * KIB, 256 * KIB + 8, 512 * KIB - 16, 512 * KIB,
            1 * MIB - 16, 1 * MIB, 8 * MIB - 16, 8 * MIB, 8 * MIB + 16, 64 * MIB, 128 * MIB};
        int compared = 0;
        for (int ranks = AllreduceDispatch.MIN_RANKS; ranks <= AllreduceDispatch.MAX_RANKS; ranks++) {
            for (long size : bytes) {
                for (long limit : limits) {
                    assertThat(allreduce.choose(ranks, size, limit))
                            .as("N=%d bytes=%d max=%d", ranks, size, limit)
                            .isEqualTo(AllreduceDispatch.choose(ranks, size, limit));
                    compared++;
                }
            }
        }
        assertThat(compared).isEqualTo(7 * bytes.length * limits.length);
    }

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void theNativeRuleRejectsWhatJavaRejects(KernelLibrary.Variant variant) throws Throwable {
        MethodHandle choose = KernelLibrary.load(variant).handle("sb_allreduce_choose", NativeAllreduce.CHOOSE);
        assertThat((int) choose.invokeExact(1, 16L, DEFAULT)).isEqualTo(-1);
        assertThat((int) choose.invokeExact(9, 16L, DEFAULT)).isEqualTo(-1);
        assertThat((int) choose.invokeExact(2, -16L, DEFAULT)).isEqualTo(-1);
        assertThat((int) choose.invokeExact(2, 16L, -1L)).isEqualTo(-1);
        assertThatThrownBy(() -> AllreduceDispatch.choose(1, 16, DEFAULT)).hasMessageContaining("ranks = 1; expected 2..8");
        assertThatThrownBy(() -> AllreduceDispatch.choose(9, 16, DEFAULT)).hasMessageContaining("ranks = 9");
        assertThatThrownBy(() -> AllreduceDispatch.choose(2, -16, DEFAULT)).hasMessageContaining("bytes = -16");
        assertThatThrownBy(() -> AllreduceDispatch.choose(2, 16, -1)).hasMessageContaining("customMaxBytes = -1");
        NativeAllreduce allreduce = new NativeAllreduce(KernelLibrary.load(variant));
        assertThatThrownBy(() -> allreduce.choose(9, 16, DEFAULT)).hasMessageContaining("ranks = 9");
    }

    @Test
    void algorithmCodesAreTheCEnum() {
        assertThat(AllreduceAlgorithm.values()).extracting(AllreduceAlgorithm::code).containsExactly(0, 1, 2, 3);
        for (AllreduceAlgorithm algorithm : AllreduceAlgorithm.values()) {
            assertThat(AllreduceAlgorithm.fromCode(algorithm.code())).isEqualTo(algorithm);
        }
        assertThatThrownBy(() -> AllreduceAlgorithm.fromCode(4)).hasMessageContaining("code 4 is unknown");
        assertThat(AllreduceAlgorithm.parse("auto")).isEqualTo(AllreduceAlgorithm.AUTO);
        assertThat(AllreduceAlgorithm.parse("one_shot")).isEqualTo(ONE_SHOT);
        assertThat(AllreduceAlgorithm.parse("Two-Shot")).isEqualTo(TWO_SHOT);
        assertThat(AllreduceAlgorithm.parse("RING")).isEqualTo(RING);
        assertThatThrownBy(() -> AllreduceAlgorithm.parse("tree")).hasMessageContaining("'tree' is unknown");
        assertThatThrownBy(() -> AllreduceAlgorithm.parse(null)).isInstanceOf(NullPointerException.class);
    }

    @Test
    void bandwidthFollowsNcclTests() {
        AllreduceBandwidth bandwidth = new AllreduceBandwidth(8, 4_000_000, 1e-3);
        assertThat(bandwidth.algorithmGigabytesPerSecond()).isEqualTo(4.0);
        assertThat(bandwidth.busGigabytesPerSecond()).isEqualTo(7.0);
        assertThat(new AllreduceBandwidth(2, 1_000_000_000, 1).busGigabytesPerSecond()).isEqualTo(1.0);
        assertThatThrownBy(() -> new AllreduceBandwidth(8, 16, 0)).hasMessageContaining("secondsPerCollective = 0.0");
        assertThatThrownBy(() -> new AllreduceBandwidth(8, -1, 1)).hasMessageContaining("bytesPerRank = -1");
    }
}
