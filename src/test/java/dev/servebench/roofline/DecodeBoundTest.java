package dev.servebench.roofline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-computed cases; the arithmetic is in the comments. */
class DecodeBoundTest {

    /** 8 GPUs: 1 TB/s, 100 TFLOP/s BF16, allreduce 10 µs + 100 GB/s busbw. */
    static HardwareShape toy(double latencySeconds) {
        return new HardwareShape("toy", 8, Sourced.of(1e12, "test"), Map.of(Precision.BF16, Sourced.of(1e14, "test")),
                Sourced.of(latencySeconds, "test"), Sourced.of(1e11, "test"));
    }

    /** 1e9 parameters in BF16 (2e9 bytes), 10 layers, hidden 1000, 1000 KV bytes per token, width 1000. */
    static ModelShape denseModel(int tp) {
        return ModelShape.dense("dense-1B", 1e9, 10, 1000, ModelShape.BF16_BITS, 1000, true, 1000, Precision.BF16, tp);
    }

    /** E = 64, k = 4, 10 MoE layers, 1e7 params per expert, 1e8 dense params, FP8-sized weights (8 bits). */
    static ModelShape moeModel() {
        return ModelShape.moe("moe", 1e8 + 64 * 1e7 * 10, 1e8 + 4 * 1e7 * 10, 10, 10, 1000, 64, 4, 0, 1e7,
                ModelShape.FP8_BITS, 0, true, 0, Precision.BF16, 1);
    }

    @Test
    void denseModelAtBatchOneIsMemoryBound() {
        DecodeBound d = DecodeBound.of(denseModel(1), toy(10e-6), 1, 100);
        // bytes = 2e9 weights + 1 × 100 × 1000 KV = 2.0001e9 → 2.0001 ms at 1 TB/s
        assertThat(d.step().memorySeconds()).isCloseTo(2.0001e-3, within(1e-12));
        // FLOPs = 2 × 1e9 + 4 × 1 × 100 × 10 layers × 1000 = 2.004e9 → 20.04 µs at 1e14
        assertThat(d.step().computeSeconds()).isCloseTo(20.04e-6, within(1e-12));
        assertThat(d.step().communicationSeconds()).isZero(); // TP = 1: no collectives
        assertThat(d.step().collectives()).isZero();
        assertThat(d.limitingTerm()).isEqualTo(LimitingTerm.MEMORY);
        assertThat(d.rooflineOutputThroughput()).isCloseTo(1 / 2.0001e-3, within(1e-6));
        assertThat(d.minItlMs()).isCloseTo(2.0001, within(1e-9));
        assertThat(d.additiveSeconds()).isCloseTo(2.0001e-3 + 20.04e-6, within(1e-12));
        assertThat(d.step().expectedExpertsPerLayer()).isZero();
    }

    @Test
    void limitingTermSwitchesFromMemoryToComputeAsTheBatchGrows() {
        // L = 0: memory 2 ms at any B; compute 2e9 × B / 1e14 = B × 20 µs; they cross at B = 100
        DecodeBound b64 = DecodeBound.of(denseModel(1), toy(10e-6), 64, 0);
        DecodeBound b128 = DecodeBound.of(denseModel(1), toy(10e-6), 128, 0);
        DecodeBound b1024 = DecodeBound.of(denseModel(1), toy(10e-6), 1024, 0);
        assertThat(b64.limitingTerm()).isEqualTo(LimitingTerm.MEMORY);
        assertThat(b64.rooflineOutputThroughput()).isCloseTo(64 / 2e-3, within(1e-6));
        assertThat(b128.limitingTerm()).isEqualTo(LimitingTerm.COMPUTE);
        assertThat(b128.step().computeSeconds()).isCloseTo(2.56e-3, within(1e-12));
        assertThat(b1024.rooflineOutputThroughput()).isCloseTo(1024 / 20.48e-3, within(1e-6)); // 50 000 tok/s
    }

    @Test
    void tensorParallelEightSplitsBytesAndFlopsAndAddsTwoAllreducesPerLayer() {
        DecodeBound d = DecodeBound.of(denseModel(8), toy(10e-6), 1, 0);
        assertThat(d.step().weightBytesPerGpu()).isCloseTo(2.5e8, within(1e-3)); // 2e9 / 8
        assertThat(d.step().memorySeconds()).isCloseTo(0.25e-3, within(1e-12));
        assertThat(d.step().flopsPerGpu()).isCloseTo(2.5e8, within(1e-3));
        assertThat(d.step().collectives()).isEqualTo(20); // 2 × 10 layers
        assertThat(d.step().messageBytes()).isEqualTo(2000); // 1 × 1000 × 2 bytes
        // each: 10 µs + 2000 × 2·7/8 / 1e11 = 10 µs + 0.035 µs
        assertThat(d.step().communicationSeconds()).isCloseTo(20 * (10e-6 + 3.5e-8), within(1e-15));
        assertThat(d.limitingTerm()).isEqualTo(LimitingTerm.MEMORY);
        // the same model at TP 8 with a 100 µs collective: 20 × 100 µs = 2 ms > 0.25 ms
        assertThat(DecodeBound.of(denseModel(8), toy(100e-6), 1, 0).limitingTerm())
                .isEqualTo(LimitingTerm.COMMUNICATION);
    }

    @Test
    void kvCacheIsSplitByTpOnlyWhenSharded() {
        ModelShape gqa = denseModel(8);
        ModelShape mla = ModelShape.dense("mla", 1e9, 10, 1000, 16, 1000, false, 1000, Precision.BF16, 8);
        // 4 × 1000 × 1000 bytes = 4e6 total
        assertThat(DecodeBound.of(gqa, toy(0), 4, 1000).step().kvBytesPerGpu()).isCloseTo(5e5, within(1e-6));
        assertThat(DecodeBound.of(mla, toy(0), 4, 1000).step().kvBytesPerGpu()).isCloseTo(4e6, within(1e-6));
    }

    @Test
    void allreduceIsLatencyBoundForSmallMessagesAndBandwidthBoundForLarge() {
        HardwareShape hw = toy(10e-6);
        double small = StepCost.allreduceSeconds(hw, 8, 2000); // 10 µs + 0.035 µs
        double large = StepCost.allreduceSeconds(hw, 8, 1e9); // 10 µs + 1e9 × 1.75 / 1e11 = 17.5 ms
        assertThat(small).isCloseTo(10.035e-6, within(1e-15));
        assertThat(small - 10e-6).isLessThan(0.01 * small); // latency is > 99 %
        assertThat(large).isCloseTo(10e-6 + 17.5e-3, within(1e-12));
        assertThat(10e-6).isLessThan(0.001 * large); // bandwidth is > 99.9 %
        // n = 2: factor 2(n−1)/n = 1
        assertThat(StepCost.allreduceSeconds(hw, 2, 1e9)).isCloseTo(10e-6 + 1e-2, within(1e-12));
        assertThat(StepCost.allreduceSeconds(hw, 1, 1e9)).isZero();
    }

    @Test
    void moeAtBatchOneReadsTopKExperts() {
        ModelShape m = moeModel();
        DecodeBound d = DecodeBound.of(m, toy(0), 1, 0);
        assertThat(d.step().expectedExpertsPerLayer()).isCloseTo(4, within(1e-12));
        // bytes = 1e8 dense + 4 × 1e7 × 10 layers = 5e8 (1 byte per param) → 0.5 ms
        assertThat(d.step().weightBytesPerGpu()).isCloseTo(5e8, within(1e-3));
        assertThat(d.step().memorySeconds()).isCloseTo(0.5e-3, within(1e-12));
        // FLOPs = 2 × active 5e8 = 1e9 → 10 µs
        assertThat(d.step().computeSeconds()).isCloseTo(10e-6, within(1e-15));
    }

    @Test
    void moeAtLargeBatchReadsDistinctExpertsUnderUniformRouting() {
        ModelShape m = moeModel();
        // B = 16: 64 × (1 − (60/64)^16) = 41.2113...
        double e16 = 64 * (1 - Math.pow(60.0 / 64, 16));
        assertThat(e16).isCloseTo(41.2113, within(1e-4));
        DecodeBound d16 = DecodeBound.of(m, toy(0), 16, 0);
        assertThat(d16.step().expectedExpertsPerLayer()).isCloseTo(e16, within(1e-9));
        assertThat(d16.step().weightBytesPerGpu()).isCloseTo(1e8 + e16 * 1e7 * 10, within(1.0));
        // B = 10 000: every expert, all weights 6.5e9 bytes → 6.5 ms
        DecodeBound big = DecodeBound.of(m, toy(0), 10_000, 0);
        assertThat(big.step().expectedExpertsPerLayer()).isCloseTo(64, within(1e-9));
        assertThat(big.step().memorySeconds()).isCloseTo(6.5e-3, within(1e-9));
        // compute 2 × 5e8 × 1e4 / 1e14 = 0.1 s → compute bound
        assertThat(big.limitingTerm()).isEqualTo(LimitingTerm.COMPUTE);
    }

    @Test
    void prefillCountsCausalAttentionAndReadsWeightsOnce() {
        PrefillBound p = PrefillBound.of(denseModel(1), toy(0), 1, 100);
        // FLOPs = 2e9 × 100 + 4 × (100 × 101 / 2) × 10 × 1000 = 2.00202e11 → 2.00202 ms
        assertThat(p.step().computeSeconds()).isCloseTo(2.00202e-3, within(1e-12));
        // bytes = 2e9 + 100 × 1000 written = 2.0001e9 → 2.0001 ms
        assertThat(p.step().memorySeconds()).isCloseTo(2.0001e-3, within(1e-12));
        assertThat(p.limitingTerm()).isEqualTo(LimitingTerm.COMPUTE);
        assertThat(p.minTtftMs()).isCloseTo(2.00202, within(1e-9));
        assertThat(Roofline.ttftOfBound(4.00404, p)).isCloseTo(0.5, within(1e-12));
    }

    @Test
    void measuredValuesAsFractionsOfTheBound() {
        DecodeBound d = DecodeBound.of(denseModel(1), toy(0), 1, 0); // 2 ms, 500 tok/s
        assertThat(Roofline.outputThroughputOfRoofline(250, d)).isCloseTo(0.5, within(1e-12));
        assertThat(Roofline.itlOfBound(8, d)).isCloseTo(0.25, within(1e-12));
        assertThatThrownBy(() -> Roofline.itlOfBound(0, d)).hasMessageContaining("ITL");
        assertThatThrownBy(() -> Roofline.outputThroughputOfRoofline(Double.NaN, d)).hasMessageContaining("throughput");
    }

    @Test
    void invalidShapesAreRejectedWithClearErrors() {
        assertThatThrownBy(() -> ModelShape.moe("m", 1e9, 2e9, 10, 10, 100, 8, 2, 0, 1e6, 4.5, 0, true, 0, Precision.FP4, 1))
                .hasMessageContaining("activeParams").hasMessageContaining("exceeds totalParams");
        assertThatThrownBy(() -> ModelShape.moe("m", 1e10, 1e9, 10, 10, 100, 8, 9, 0, 1e6, 4.5, 0, true, 0, Precision.FP4, 1))
                .hasMessageContaining("topK must be in 1..8");
        assertThatThrownBy(() -> new ModelShape("m", 1e9, 1e9, 10, 0, 100, 0, 2, 0, 0, 1e9, 16, 0, true, 0, Precision.BF16, 1))
                .hasMessageContaining("dense model");
        assertThatThrownBy(() -> ModelShape.moe("m", 1e9, 1e8, 10, 10, 100, 8, 2, 0, 1e7, 4.5, 0, true, 0, Precision.FP4, 1))
                .hasMessageContaining("exceed");
        assertThatThrownBy(() -> ModelShape.dense("m", 1e9, 10, 100, 0, 0, true, 0, Precision.BF16, 1))
                .hasMessageContaining("weightBitsPerParam");
        assertThatThrownBy(() -> DecodeBound.of(denseModel(16), toy(0), 1, 0))
                .hasMessageContaining("TP = 16").hasMessageContaining("8 GPUs");
        assertThatThrownBy(() -> DecodeBound.of(ModelShape.dense("m", 1e9, 10, 100, 4.5, 0, true, 0, Precision.FP4, 1),
                toy(0), 1, 0)).hasMessageContaining("no dense FLOP/s for FP4");
        assertThatThrownBy(() -> DecodeBound.of(denseModel(1), toy(0), 0, 0)).hasMessageContaining("batch");
        assertThatThrownBy(() -> Sourced.of(1, " ")).hasMessageContaining("source");
        assertThatThrownBy(() -> Sourced.of(-1, "x")).hasMessageContaining(">= 0");
    }

    @Test
    void nvfp4CountsItsBlockScales() {
        assertThat(ModelShape.NVFP4_BITS).isEqualTo(4.5);
        assertThat(ModelShape.kvBytesGqa(80, 8, 128, 2)).isEqualTo(327_680);
        assertThat(ModelShape.kvBytesMla(78, 512, 64, 2)).isEqualTo(89_856);
        assertThat(ModelShape.swigluParams(6144, 2048)).isEqualTo(37_748_736);
    }

    @Test
    void ceilingOverAllBatchesIsAboveEveryBatchAndApproachedByLargeOnes() {
        ModelShape m = denseModel(8);
        HardwareShape hw = toy(10e-6);
        DecodeBound.Ceiling c = DecodeBound.ceiling(m, hw, 100);
        // per sequence: KV 100 × 1000 / 8 / 1e12 = 12.5 ns; FLOPs (2e9 + 4e6) / 8 / 1e14 = 2.505 µs;
        // allreduce bytes 20 × 2000 × 1.75 / 1e11 = 0.7 µs → compute, 1 / 2.505 µs
        assertThat(c.perSequence().computeSeconds()).isCloseTo(2.505e-6, within(1e-15));
        assertThat(c.perSequence().communicationSeconds()).isCloseTo(0.7e-6, within(1e-15));
        assertThat(c.perSequence().memorySeconds()).isCloseTo(12.5e-9, within(1e-18));
        assertThat(c.limitingTerm()).isEqualTo(LimitingTerm.COMPUTE);
        assertThat(c.outputThroughput()).isCloseTo(1 / 2.505e-6, within(1e-3));
        for (int b : new int[] {1, 64, 4096, 1 << 20}) {
            assertThat(DecodeBound.of(m, hw, b, 100).rooflineOutputThroughput()).isLessThanOrEqualTo(c.outputThroughput() * (1 + 1e-12));
        }
        assertThat(DecodeBound.of(m, hw, 1 << 20, 100).rooflineOutputThroughput() / c.outputThroughput())
                .isGreaterThan(0.99);
    }
}
