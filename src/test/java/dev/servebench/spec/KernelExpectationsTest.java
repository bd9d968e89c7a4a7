package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.metric.KernelMetric;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A spec's kernels: list: the lines, their parameter points and baselines, and every error at once. */
class KernelExpectationsTest {

    /** Lines 1-6; the kernels: key is line 7, its items from line 8, each expression at column 5. */
    private static final String HEAD = """
            name: bad
            workload:
              dataset: random
              input_len: 256
              output_len: 128
            sweep: {concurrency: [1, 64, 256]}
            """;

    private static List<KernelExpectation> kernels(String... lines) {
        return SpecReader.parse(HEAD + "kernels:\n" + String.join("", List.of(lines).stream()
                .map(line -> "  - " + line + "\n").toList()), "k.yaml").kernelExpectations();
    }

    @Test
    void aBaselineTakesTheCheckedPointsParametersItHasAndReplacesThoseWrittenAfterIt() {
        List<KernelExpectation> read = kernels(
                "moe_gflops@backend=native,shape=6144x256x256x8,tokens=64 >= 0.8x moe_gflops@backend=ggml-q4_0",
                "allreduce_busbw_gbps@backend=native,ranks=2,bytes=4MiB,algorithm=auto,placement=out >= 0.5 x"
                        + " memcpy_per_thread_gbps@bytes=8MiB,threads=2",
                "nvfp4_dequant_gbps@output=bf16,backend=native >= 0.8 × memcpy_gbps",
                "moe_gflops >= 50 GFLOP/s @ tokens=64,backend=native");

        assertThat(read).hasSize(4);
        RelativeKernelExpectation moe = (RelativeKernelExpectation) read.get(0);
        assertThat(moe.factor()).isEqualTo(0.8);
        assertThat(moe.referencePoint().parameters()).containsExactly(Map.entry("backend", "ggml-q4_0"),
                Map.entry("shape", "6144x256x256x8"), Map.entry("tokens", "64"));
        assertThat(moe.displayName()).isEqualTo("moe_gflops@backend=native,shape=6144x256x256x8,tokens=64 ≥ 0.8 ×"
                + " moe_gflops@backend=ggml-q4_0");
        assertThat(moe.position()).isEqualTo(new SourcePosition(java.nio.file.Path.of("k.yaml"), 8, 5));
        RelativeKernelExpectation allreduce = (RelativeKernelExpectation) read.get(1);
        // Sizes are kept in JMH's spelling (what results record) and shown with their binary suffix.
        assertThat(allreduce.point().parameters()).containsEntry("bytes", "4194304");
        assertThat(allreduce.referenceMetric()).isEqualTo(KernelMetric.MEMCPY_PER_THREAD_GBPS);
        assertThat(allreduce.referencePoint().parameters()).containsExactly(Map.entry("bytes", "8388608"),
                Map.entry("threads", "2"));
        assertThat(allreduce.displayName()).contains("bytes=4MiB").endsWith("× memcpy_per_thread_gbps@bytes=8MiB,threads=2");
        // The dequant point has no memcpy parameter: the baseline is every memcpy result, until judged.
        RelativeKernelExpectation dequant = (RelativeKernelExpectation) read.get(2);
        assertThat(dequant.point()).hasToString("backend=native,output=bf16");
        assertThat(dequant.referencePoint().parameters()).isEmpty();
        assertThat(dequant.displayName()).endsWith("≥ 0.8 × memcpy_gbps");
        AbsoluteKernelExpectation absolute = (AbsoluteKernelExpectation) read.get(3);
        assertThat(absolute.displayName()).isEqualTo("moe_gflops ≥ 50 GFLOP/s @ backend=native,tokens=64");
    }

    @Test
    void everyBadLineIsReportedAtOnceAtItsTokenWithWhatWasExpected() {
        SpecException e = SpecErrorsTest.failure(HEAD + """
                kernels:
                  - moe_gflop@backend=native >= 1 x moe_gflops@backend=ggml-f16
                  - moe_gflops@backend=native,token=64 >= 1 x moe_gflops@backend=ggml-f16
                  - nvfp4_dequant_gbps@layout=linaer >= 0.8 x memcpy_gbps
                  - nvfp4_dequant_gbps@layout=linear >= 0.8 x moe_gflops@backend=native
                  - moe_gflops@backend=native >= 1 x moe_gflops
                  - output_throughput@concurrency=1 >= 1 x output_throughput@concurrency=64
                  - moe_gflops >= 50 GB/s @ backend=native
                  - allreduce_us@bytes=4MiB,bytes=8MiB <= 1 x allreduce_us@algorithm=ring
                  - memcpy_gbps@bytes=4XiB >= 1 x memcpy_gbps@bytes=8MiB
                expect:
                  - moe_gflops >= 1 GFLOP/s @ concurrency=1
                """);

        assertThat(e.errors()).extracting(SpecError::toString).containsExactly(
                "bad.yaml:8:5: kernels[0]: unknown kernel metric 'moe_gflop' (did you mean 'moe_gflops'?); kernel"
                        + " metrics are memcpy_gbps, memcpy_per_thread_gbps, nvfp4_dequant_gbps, moe_gflops,"
                        + " allreduce_busbw_gbps, allreduce_algbw_gbps, allreduce_us (docs/kernels.md)",
                "bad.yaml:9:31: kernels[1]: unknown parameter 'token': MoeBenchmark has backend, shape, tokens,"
                        + " threads (did you mean 'tokens'?)",
                "bad.yaml:10:31: kernels[2]: layout: expected one of linear, swizzled, found 'linaer' (did you mean"
                        + " 'linear'?)",
                "bad.yaml:11:47: kernels[3]: units differ: nvfp4_dequant_gbps is in GB/s, moe_gflops in GFLOP/s; a"
                        + " relative expectation compares like with like",
                "bad.yaml:12:38: kernels[4]: compares moe_gflops@backend=native with itself; name the baseline's"
                        + " parameters after '@', e.g. moe_gflops@backend=…",
                "bad.yaml:13:5: kernels[5]: 'output_throughput' is a serving metric: it goes in the spec's expect:"
                        + " list; kernels: takes kernel metrics (memcpy_gbps, memcpy_per_thread_gbps,"
                        + " nvfp4_dequant_gbps, moe_gflops, allreduce_busbw_gbps, allreduce_algbw_gbps, allreduce_us)",
                "bad.yaml:14:22: kernels[6]: unit 'GB/s' does not match moe_gflops, which is in GFLOP/s (write GFLOP/s"
                        + " or GFLOPS; values are not converted)",
                "bad.yaml:15:29: kernels[7]: bytes is given twice",
                "bad.yaml:16:23: kernels[8]: bytes: expected a byte count (an integer >= 1, optionally with KiB, MiB or"
                        + " GiB, e.g. 4MiB), found '4XiB'",
                "bad.yaml:18:5: expect[0]: 'moe_gflops' is a kernel metric: kernel expectations go in the spec's"
                        + " kernels: list (docs/specs.md), expect: takes serving metrics");
    }

    @Test
    void theSameLineTwiceIsADuplicateEvenWrittenInAnotherParameterOrder() {
        SpecException e = SpecErrorsTest.failure(HEAD + """
                kernels:
                  - moe_gflops@backend=native,tokens=64 >= 1 x moe_gflops@backend=ggml-f16
                  - moe_gflops@tokens=64,backend=native >= 1 x moe_gflops@backend=ggml-f16
                """);

        assertThat(e).hasMessage("bad.yaml:9:5: kernels[1]: duplicate expectation 'moe_gflops@backend=native,tokens=64 ≥ 1 ×"
                + " moe_gflops@backend=ggml-f16' (already at kernels[0], line 8)");
    }
}
