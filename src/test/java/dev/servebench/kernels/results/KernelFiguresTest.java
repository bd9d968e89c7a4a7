package dev.servebench.kernels.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.metric.KernelMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KernelFiguresTest {

    private static final String BENCH = "dev.servebench.kernels.bench.";

    @Test
    void parsesJmhJsonIncludingAMedianOfAllForksIterationsAndNaNErrors() throws Exception {
        String text = """
                [{"benchmark":"dev.servebench.kernels.bench.MemcpyBenchmark.copy","mode":"avgt",
                  "params":{"bytes":"1000","threads":"2"},
                  "primaryMetric":{"score":2.0,"scoreError":"NaN","scoreUnit":"us/op","rawData":[[1.0,9.0],[2.0]]}}]
                """;
        List<JmhResult> results = JmhResults.parse(new ObjectMapper().readTree(text), "test.json");
        assertThat(results).hasSize(1);
        JmhResult r = results.getFirst();
        assertThat(r.benchmark()).isEqualTo("MemcpyBenchmark.copy");
        assertThat(r.className()).isEqualTo("MemcpyBenchmark");
        assertThat(r.median()).isEqualTo(2.0);
        assertThat(r.scoreError()).isNaN();
        assertThat(r.medianSeconds()).isEqualTo(2e-6);
    }

    @Test
    void missingFieldsAndNonTimeUnitsAreNamed() throws Exception {
        ObjectMapper json = new ObjectMapper();
        assertThatThrownBy(() -> JmhResults.parse(json.readTree("[{\"benchmark\":\"A.b\"}]"), "f.json"))
                .hasMessageContaining("f.json[0]").hasMessageContaining("primaryMetric");
        JmhResult throughput = result("MemcpyBenchmark.copy", Map.of("bytes", "1", "threads", "1"), 1, "ops/s");
        assertThatThrownBy(throughput::medianSeconds).hasMessageContaining("ops/s");
    }

    @Test
    void dequantBandwidthCountsBytesReadAndWrittenAndComparesWithTheLargestCopy() {
        List<JmhResult> results = new ArrayList<>();
        results.add(result("MemcpyBenchmark.copy", Map.of("bytes", "1000", "threads", "2"), 0.001, "us/op"));
        // 2·256 MiB in 20 ms.
        results.add(result("MemcpyBenchmark.copy", Map.of("bytes", "268435456", "threads", "2"), 20_000, "us/op"));
        Map<String, String> point = Map.of("output", "bf16", "layout", "linear", "rows", "16384", "k", "8192",
                "threads", "2");
        results.add(result("Nvfp4DequantBenchmark.dequantize", with(point, "backend", "native"), 25_000, "us/op"));
        results.add(result("Nvfp4DequantBenchmark.dequantize", with(point, "backend", "java"), 500_000, "us/op"));
        Map<String, String> swizzled = with(with(point, "layout", "swizzled"), "backend", "native");
        results.add(result("Nvfp4DequantBenchmark.dequantize", swizzled, 25_000, "us/op"));

        KernelReport report = KernelFigures.derive(results);

        DequantFigure nativeFigure = report.dequant().stream().filter(d -> d.backend().equals("native")).findFirst()
                .orElseThrow();
        long elements = 16384L * 8192;
        long bytes = elements / 2 + elements / 16 + elements * 2;
        assertThat(nativeFigure.tensorBytes()).isEqualTo(elements / 2 + elements / 16);
        assertThat(nativeFigure.gbPerSecond()).isCloseTo(bytes / 0.025 / 1e9, within(1e-9));
        assertThat(nativeFigure.copyGbPerSecond()).isCloseTo(2.0 * 268435456 / 0.02 / 1e9, within(1e-9));
        assertThat(nativeFigure.ratioToCopy()).isCloseTo((bytes / 0.025) / (2.0 * 268435456 / 0.02), within(1e-12));
        assertThat(nativeFigure.speedupOverJava()).isCloseTo(20.0, within(1e-12));
        DequantFigure swizzledFigure = report.dequant().stream().filter(d -> d.layout().equals("swizzled"))
                .findFirst().orElseThrow();
        assertThat(swizzledFigure.tensorBytes()).isEqualTo(elements / 2 + 16384L * 512);
        // The figure kernel expectations read is the table's, from the same formula.
        assertThat(KernelMeasurementsJson.values(results)).filteredOn(v -> v.metric() == KernelMetric.NVFP4_DEQUANT_GBPS
                && v.parameters().get("backend").equals("native") && v.parameters().get("layout").equals("linear"))
                .singleElement().satisfies(v -> assertThat(v.value()).isEqualTo(nativeFigure.gbPerSecond()));
    }

    @Test
    void moeRatiosCompareTheSamePointAcrossBackendsAndCheckBothGgmlTargets() {
        Map<String, String> point = Map.of("shape", "6144x256x256x8", "tokens", "64", "threads", "2");
        List<JmhResult> results = List.of(
                result("MoeBenchmark.forward", with(point, "backend", "native"), 10, "ms/op"),
                result("MoeBenchmark.forward", with(point, "backend", "ggml-f16"), 12, "ms/op"),
                result("MoeBenchmark.forward", with(point, "backend", "ggml-q4_0"), 7, "ms/op"),
                result("MoeBenchmark.forward", Map.of("shape", "6144x256x256x8", "tokens", "16", "threads", "2",
                        "backend", "ggml-f16"), 1, "ms/op"));
        KernelReport report = KernelFigures.derive(results);
        MoeFigure ours = report.moe().getFirst();
        assertThat(ours.gflops()).isCloseTo(6.0 * 6144 * 256 * 64 * 8 / 0.010 / 1e9, within(1e-9));
        assertThat(ours.vsGgmlF16()).isCloseTo(1.2, within(1e-12));
        assertThat(ours.vsGgmlQ4_0()).isCloseTo(0.7, within(1e-12));
        assertThat(ours.speedupOverJava()).isNull();
        assertThat(report.toMarkdown()).contains("| native | 6144x256x256x8 | 64 | 2 |").contains("| 1.20× | 0.70× |");
    }

    @Test
    void allreduceUsesNcclTestsFormulasPerCollective() {
        long bytes = 4L << 20;
        int repeats = AllreduceRepeats.forBytes(bytes);
        double perCollectiveSeconds = 400e-6;
        List<JmhResult> results = List.of(
                result("MemcpyBenchmark.copy", Map.of("bytes", Long.toString(2 * bytes), "threads", "2"), 200,
                        "us/op"),
                result("AllreduceBenchmark.allreduce", Map.of("backend", "native", "ranks", "2", "bytes",
                        Long.toString(bytes), "algorithm", "auto", "placement", "out"),
                        perCollectiveSeconds * 1e6 * repeats, "us/op"));
        AllreduceFigure figure = KernelFigures.derive(results).allreduce().getFirst();
        assertThat(figure.microsPerCollective()).isCloseTo(400, within(1e-9));
        assertThat(figure.algbwGbPerSecond()).isCloseTo(bytes / perCollectiveSeconds / 1e9, within(1e-9));
        assertThat(figure.busbwGbPerSecond()).isCloseTo(figure.algbwGbPerSecond() * 2 * 1 / 2, within(1e-9));
        assertThat(figure.copyGbPerSecond()).isCloseTo(bytes / 200e-6 / 1e9, within(1e-9));
        assertThat(figure.busbwToCopy()).isCloseTo(0.5, within(1e-12));
        assertThat(AllreduceRepeats.forBytes(12288)).isEqualTo(256);
        assertThat(AllreduceRepeats.forBytes(64L << 20)).isEqualTo(1);
    }

    @Test
    void moeShapeTextIsValidated() {
        assertThatThrownBy(() -> MoeDims.parse("6144x256")).hasMessageContaining("HxIxExk");
        assertThatThrownBy(() -> MoeDims.parse("1x1x2x3")).hasMessageContaining("topK <= experts");
        assertThat(MoeDims.parse("6144x256x256x8").expectedActiveWeightBytes(1))
                .isCloseTo(8 * 3.0 * 6144 * 256 * 0.5625, within(1.0));
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        var copy = new java.util.LinkedHashMap<>(base);
        copy.put(key, value);
        return copy;
    }

    private static JmhResult result(String benchmark, Map<String, String> params, double score, String unit) {
        return new JmhResult(benchmark, params, unit, score, 0.0, List.of(List.of(score, score, score)));
    }
}
