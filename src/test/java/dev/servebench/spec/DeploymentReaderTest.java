package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.servebench.roofline.Deployment;
import dev.servebench.roofline.HardwareFigure;
import dev.servebench.roofline.HardwareFigures;
import dev.servebench.roofline.HardwareShape;
import dev.servebench.roofline.KnownShapes;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.ModelShape;
import dev.servebench.roofline.Precision;
import dev.servebench.roofline.Sourced;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** {@code model:} and {@code hardware:}: the shapes the bound needs, each figure sourced or measured. */
class DeploymentReaderTest {

    private static final String HEAD = """
            name: roofline
            workload: {dataset: random, input_len: 128, output_len: 64}
            sweep: {concurrency: [1, 8]}
            """;

    /** Llama-2-70B-like: 80 layers, hidden 8192, 64 heads, 8 KV heads of 128, FP8 weights and KV, one GPU. */
    private static final String DENSE = """
            model:
              name: dense 70B
              source: config.json
              total_params_b: 69
              layers: 80
              hidden_size: 8192
              weight_format: fp8
              attention: {heads: 64, kv: gqa, kv_heads: 8, head_dim: 128, kv_dtype: fp8}
            hardware:
              name: one GPU
              gpus: 1
              memory_bandwidth_gb_s: {value: 4800, source: data sheet}
              dense_tflops: {fp8: {value: 1979, source: data sheet}}
            """;

    @Test
    void theGlm5SpecCarriesKnownShapesFigures() throws IOException {
        Deployment deployment = SpecReader.read(Path.of("fixtures/specs/glm5-nvfp4-8x-rtxpro6000.yaml"))
                .deployment().orElseThrow();

        assertThat(deployment.model()).isEqualTo(KnownShapes.glm5Nvfp4Tp8());
        HardwareShape known = KnownShapes.rtxPro6000x8Pcie();
        HardwareShape read = ((HardwareFigures.Resolved) deployment.resolve(MeasuredHardware.NONE)).shape();
        assertThat(read.gpuCount()).isEqualTo(8);
        assertThat(read.memoryBandwidth().value()).isEqualTo(known.memoryBandwidth().value());
        for (Precision p : Precision.values()) {
            assertThat(read.peakFlops(p)).isCloseTo(known.peakFlops(p), within(known.peakFlops(p) * 1e-12));
        }
        assertThat(read.allreduceLatency().value()).isCloseTo(13e-6, within(1e-18));
        assertThat(read.busBandwidth().value()).isEqualTo(63.0e9);
        assertThat(read.memoryBandwidth().source()).contains("data sheet");
    }

    @Test
    void aDenseGqaModelOnOneGpu() {
        Deployment d = SpecReader.parse(HEAD + DENSE, "dense.yaml").deployment().orElseThrow();
        ModelShape m = d.model();

        assertThat(m.activeParams()).isEqualTo(69e9);
        assertThat(m.denseParams()).isEqualTo(69e9);
        // 2 (K and V) × 80 layers × 8 KV heads × 128 × 1 byte
        assertThat(m.kvBytesPerToken()).isEqualTo(163_840);
        assertThat(m.kvShardedByTp()).isTrue();
        assertThat(m.attentionWidth()).isEqualTo(64 * 128);
        assertThat(m.weightBitsPerParam()).isEqualTo(8);
        assertThat(m.precision()).isEqualTo(Precision.FP8);
        assertThat(m.tensorParallel()).isEqualTo(1);
        HardwareShape h = ((HardwareFigures.Resolved) d.resolve(MeasuredHardware.NONE)).shape();
        assertThat(h.peakFlops(Precision.FP8)).isEqualTo(1979e12);
        assertThat(h.allreduceLatency().value()).isZero();
        assertThat(d.hardware().allreduceLatency()).isEmpty();
    }

    @Test
    void measuredFiguresComeFromTheRunOrTheBoundIsAbsentWithTheReason() {
        String yaml = HEAD + DENSE.replace("{value: 4800, source: data sheet}", "measured")
                .replace("{fp8: {value: 1979, source: data sheet}}", "{fp8: measured}");
        Deployment d = SpecReader.parse(yaml, "m.yaml").deployment().orElseThrow();

        assertThat(d.hardware().memoryBandwidth()).isInstanceOf(HardwareFigure.Measured.class);
        assertThat(d.resolve(MeasuredHardware.NONE)).isEqualTo(new HardwareFigures.Unresolved("hardware one GPU:"
                + " memory bandwidth (memcpy), FP8 dense FLOP/s (MoE GEMM) are to be measured, but this run has no"
                + " kernel-suite results"));
        MeasuredHardware run = new MeasuredHardware() {
            @Override
            public Optional<Sourced> memoryBandwidth() {
                return Optional.of(Sourced.of(20e9, "memcpy"));
            }

            @Override
            public Optional<Sourced> denseFlops() {
                return Optional.of(Sourced.of(300e9, "moe"));
            }

            @Override
            public Optional<Sourced> allreduceLatency(int ranks) {
                return Optional.empty();
            }

            @Override
            public Optional<Sourced> busBandwidth(int ranks) {
                return Optional.empty();
            }

            @Override
            public String origin() {
                return "test";
            }
        };
        HardwareShape h = ((HardwareFigures.Resolved) d.resolve(run)).shape();
        assertThat(h.memoryBandwidth()).isEqualTo(Sourced.of(20e9, "memcpy"));
        assertThat(h.peakFlops(Precision.FP8)).isEqualTo(300e9);
    }

    @Test
    void everyMistakeIsReportedAtOnceWithItsPosition() {
        String yaml = HEAD + """
                model:
                  name: m
                  source: s
                  total_params_b: 10
                  layers: 4
                  hidden_size: 512
                  experts: {routed: 8, top_k: 9, layers: 4, intermediate_size: 64}
                  weight_format: int4
                  attention: {heads: 8, kv: mqa}
                hardware:
                  name: h
                  gpus: 2
                  memory_bandwidth_gb_s: 1000
                  dense_tflops: {fp4: {value: 1}}
                """;
        SpecException e = SpecErrorsTest.failure(yaml);

        assertThat(e.getMessage()).isEqualTo(String.join("\n", "bad.yaml: 7 errors",
                "bad.yaml:10:31: model.experts.top_k: expected an integer in [1, 8], found integer 9",
                "bad.yaml:11:18: model.weight_format: expected nvfp4 (4.5 bits with block scales), fp8, bf16 or f16, found"
                        + " string 'int4'",
                "bad.yaml:12:29: model.attention.kv: expected mla (latent KV: kv_latent, rope_dim) or gqa (kv_heads,"
                        + " head_dim), found string 'mqa'",
                "bad.yaml:14:3: hardware: missing required key 'allreduce_latency_us' (2 GPUs communicate; a figure"
                        + " with its source, or measured)",
                "bad.yaml:14:3: hardware: missing required key 'allreduce_busbw_gb_s' (2 GPUs communicate; a figure"
                        + " with its source, or measured)",
                "bad.yaml:16:26: hardware.memory_bandwidth_gb_s: expected 'measured' (from the kernel suite's results"
                        + " of the run) or {value: NUMBER, source: \"where it comes from\"}, found integer 1000",
                "bad.yaml:17:23: hardware.dense_tflops.fp4: missing required key 'source'"));
    }

    @Test
    void aModelNeedsItsHardwareAndATensorParallelDegreeItsGpus() {
        assertThat(SpecErrorsTest.failure(HEAD + DENSE.substring(0, DENSE.indexOf("hardware:"))))
                .hasMessage("bad.yaml:5:3: model: needs a 'hardware:' section beside it: the speed-of-light bound"
                        + " needs both");
        assertThat(SpecErrorsTest.failure(HEAD + DENSE.replace("head_dim: 128,", "head_dim: 128, ")
                        .replace("weight_format: fp8", "weight_format: fp8\n  tensor_parallel: 2")))
                .hasMessage("bad.yaml:5:3: model: model dense 70B uses tensor parallelism 2 but hardware one GPU has"
                        + " 1 GPU");
    }

    @Test
    void aSpecWithoutTheSectionsHasNoDeployment() {
        assertThat(SpecReader.parse(HEAD, "plain.yaml").deployment()).isEmpty();
    }

    /** The embedded engine's model as the default spec states it, against the generator's own dimensions. */
    @Test
    void theDefaultSpecStatesTheEmbeddedTinyMoe() throws IOException {
        Deployment d = SpecReader.read(Path.of("fixtures/specs/embedded-default.yaml")).deployment().orElseThrow();
        dev.servebench.gguf.ModelDims tiny = dev.servebench.gguf.ModelDims.TINY;
        double e = tiny.embedding();
        double experts = 3 * e * tiny.feedForward() * tiny.experts() * tiny.blocks();
        double attention = 4 * e * e * tiny.blocks();
        double router = e * tiny.experts() * tiny.blocks();
        double norms = e * (2 * tiny.blocks() + 1);
        double embeddings = e * tiny.vocabSize();
        ModelShape m = d.model();

        assertThat(m.totalParams()).isCloseTo(experts + attention + router + norms + 2 * embeddings, within(0.5));
        // Read per token: everything but the experts not routed to and the input embedding (a row gather).
        assertThat(m.activeParams()).isCloseTo(experts * tiny.expertsUsed() / tiny.experts() + attention + router
                + norms + embeddings, within(0.5));
        assertThat(m.layers()).isEqualTo(tiny.blocks());
        assertThat(m.hiddenSize()).isEqualTo(tiny.embedding());
        assertThat(m.routedExperts()).isEqualTo(tiny.experts());
        assertThat(m.topK()).isEqualTo(tiny.expertsUsed());
        assertThat(m.paramsPerRoutedExpert()).isEqualTo(3 * e * tiny.feedForward());
        assertThat(m.kvBytesPerToken()).isEqualTo(2.0 * tiny.blocks() * tiny.heads() * tiny.headSize() * 2);
        assertThat(d.hardware().memoryBandwidth()).isInstanceOf(HardwareFigure.Measured.class);
        assertThat(d.resolve(MeasuredHardware.NONE)).isInstanceOf(HardwareFigures.Unresolved.class);
    }
}
