package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.client.Backend;
import dev.servebench.load.LoadPoint;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import dev.servebench.gguf.WeightType;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Valid specs: every target kind, defaults, the sweep's cross product and the expectations read. */
class SpecReaderTest {

    private static final String WORKLOAD_AND_SWEEP = """
            workload:
              dataset: random
              input_len: 256
              output_len: 128
            sweep:
              concurrency: [1, 64]
            """;

    @Test
    void minimalSpecGetsTheDocumentedDefaults() {
        PerformanceSpec spec = SpecReader.parse("name: minimal\n" + WORKLOAD_AND_SWEEP, "minimal.yaml");

        assertThat(spec.name()).isEqualTo("minimal");
        assertThat(spec.description()).isEmpty();
        assertThat(spec.target()).isEqualTo(new EmbeddedTargetSpec(WeightType.F16, 64, 2, Backend.OPENAI, Optional.empty()));
        assertThat(spec.workload()).isEqualTo(new WorkloadSpec(new RandomDatasetSpec(256, 128, 0.0),
                new PromptCount.Fixed(1000), 42, PromptFormat.AUTO, true));
        assertThat(spec.sweep()).isEqualTo(new SweepSpec(List.of(1, 64), List.of(Double.POSITIVE_INFINITY), 1.0));
        assertThat(spec.warmup()).isEqualTo(1);
        assertThat(spec.repeats()).isEqualTo(1);
        assertThat(spec.repeatOrder()).isEqualTo(RepeatOrder.SEQUENTIAL);
        assertThat(spec.validity()).isEqualTo(new ValiditySpec(0.99, 0.8, 50, 0.01));
        assertThat(spec.expectations()).isEmpty();
        assertThat(spec.source().file()).isEqualTo(Path.of("minimal.yaml"));
    }

    @Test
    void repeatOrderInterleaved() {
        PerformanceSpec spec = SpecReader.parse("name: i\nrepeats: 4\nrepeat_order: interleaved\n" + WORKLOAD_AND_SWEEP,
                "i.yaml");

        assertThat(spec.repeats()).isEqualTo(4);
        assertThat(spec.repeatOrder()).isEqualTo(RepeatOrder.INTERLEAVED);
    }

    @Test
    void embeddedTarget() {
        PerformanceSpec spec = SpecReader.parse("""
                name: e
                target:
                  weights: q4_0
                  slots: 8
                  threads: 1
                  backend: openai-chat
                  model: tiny
                """ + WORKLOAD_AND_SWEEP, "e.yaml");

        assertThat(spec.target()).isEqualTo(new EmbeddedTargetSpec(WeightType.Q4_0, 8, 1, Backend.OPENAI_CHAT,
                Optional.of("tiny")));
        assertThat(spec.target().kind()).isEqualTo("embedded");
    }

    @Test
    void urlTarget() {
        PerformanceSpec spec = SpecReader.parse("""
                name: u
                target:
                  kind: url
                  url: https://gpu-box.example:8443/sglang
                  backend: vllm
                  model: zai-org/GLM-5
                """ + WORKLOAD_AND_SWEEP, "u.yaml");

        assertThat(spec.target()).isEqualTo(new UrlTargetSpec(URI.create("https://gpu-box.example:8443/sglang"),
                Backend.VLLM, Optional.of("zai-org/GLM-5")));
    }

    @Test
    void processTargetResolvesItsWorkingDirectoryAgainstTheSpecsDirectory() {
        PerformanceSpec spec = SpecReader.parse("""
                name: p
                target:
                  kind: process
                  command: [python3, -m, sglang.launch_server, --port, 30000, --mem-fraction-static, 0.85]
                  port: 30000
                  ready_timeout: 20m
                  env: {CUDA_VISIBLE_DEVICES: "0,1", OMP_NUM_THREADS: 1}
                  working_dir: ../servers
                  backend: sglang
                """ + WORKLOAD_AND_SWEEP, "specs/p.yaml");

        ProcessTargetSpec target = (ProcessTargetSpec) spec.target();
        assertThat(target.command()).containsExactly("python3", "-m", "sglang.launch_server", "--port", "30000",
                "--mem-fraction-static", "0.85");
        assertThat(target.port()).isEqualTo(30000);
        assertThat(target.baseUrl()).isEqualTo(URI.create("http://127.0.0.1:30000"));
        assertThat(target.readyTimeout()).isEqualTo(Duration.ofMinutes(20));
        assertThat(target.env()).containsExactly(Map.entry("CUDA_VISIBLE_DEVICES", "0,1"),
                Map.entry("OMP_NUM_THREADS", "1"));
        assertThat(target.workingDir()).contains(Path.of("servers"));
        assertThat(target.backend()).isEqualTo(Backend.SGLANG);
        assertThat(target.model()).isEmpty();
    }

    @Test
    void containerTarget() {
        PerformanceSpec spec = SpecReader.parse("""
                name: c
                target:
                  kind: container
                  image: lmsysorg/sglang:latest
                  command: [python3, -m, sglang.launch_server, --tp, 8]
                  gpus: all
                  shm_size: 32g
                  model_cache: /data/hf-cache
                  port: 30000
                  env: {HF_HUB_OFFLINE: 1}
                  backend: sglang-oai-chat
                """ + WORKLOAD_AND_SWEEP, "c.yaml");

        assertThat(spec.target()).isEqualTo(new ContainerTargetSpec("lmsysorg/sglang:latest",
                List.of("python3", "-m", "sglang.launch_server", "--tp", "8"), new GpuRequest.All(), Optional.of("32g"),
                Optional.of(Path.of("/data/hf-cache")), 30000, Map.of("HF_HUB_OFFLINE", "1"), Duration.ofMinutes(15),
                Backend.SGLANG_OAI_CHAT, Optional.empty()));
    }

    @Test
    void containerDefaultsAndGpuCount() {
        ContainerTargetSpec counted = (ContainerTargetSpec) SpecReader.parse("""
                name: c
                target: {kind: container, image: "vllm/vllm-openai:v0.11.0", port: 8000, gpus: 4}
                """ + WORKLOAD_AND_SWEEP, "c.yaml").target();
        ContainerTargetSpec bare = (ContainerTargetSpec) SpecReader.parse("""
                name: c
                target: {kind: container, image: "vllm/vllm-openai:v0.11.0", port: 8000}
                """ + WORKLOAD_AND_SWEEP, "c.yaml").target();

        assertThat(counted.gpus()).isEqualTo(new GpuRequest.Count(4));
        assertThat(bare.gpus()).isEqualTo(new GpuRequest.None());
        assertThat(bare.command()).isEmpty();
        assertThat(bare.shmSize()).isEmpty();
        assertThat(bare.modelCache()).isEmpty();
        assertThat(bare.env()).isEmpty();
        assertThat(bare.backend()).isEqualTo(Backend.OPENAI);
        assertThat(bare.baseUrl()).isEqualTo(URI.create("http://127.0.0.1:8000"));
    }

    @Test
    void shareGptWorkloadResolvesItsPathNextToTheSpec() {
        PerformanceSpec spec = SpecReader.parse("""
                name: s
                workload:
                  dataset: sharegpt
                  path: ../sharegpt-sample.json
                  output_len: 200
                  prompts: 50
                  seed: 7
                  prompt_format: text
                  ignore_eos: false
                  tokenizer: ../../models/m
                sweep:
                  request_rate: [2, 4.5]
                """, "fixtures/specs/s.yaml");

        assertThat(spec.workload()).isEqualTo(new WorkloadSpec(
                new ShareGptDatasetSpec(Path.of("fixtures/sharegpt-sample.json"), OptionalInt.of(200)),
                new PromptCount.Fixed(50), 7, PromptFormat.TEXT, false, Optional.of(Path.of("models/m"))));
        assertThat(spec.target()).isEqualTo(new EmbeddedTargetSpec(WeightType.F16, 16, 2, Backend.OPENAI,
                Optional.empty()));
    }

    @Test
    void sweepCrossesRatesOuterWithConcurrenciesInnerLikeTheCli() {
        PerformanceSpec spec = SpecReader.parse("""
                name: x
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep:
                  concurrency: [64, 8]
                  request_rate: [inf, 16, 0.5]
                  burstiness: 0.5
                """, "x.yaml");

        assertThat(spec.sweep().points()).hasToString("[concurrency=64, concurrency=8, concurrency=64,rate=16,"
                + " concurrency=8,rate=16, concurrency=64,rate=0.5, concurrency=8,rate=0.5]");
        assertThat(spec.sweep().loadPoints().get(2)).isEqualTo(new LoadPoint(64, 16, 0.5));
        assertThat(spec.sweep().loadPoints()).extracting(LoadPoint::label).startsWith("concurrency-64", "concurrency-8",
                "rate-16-concurrency-64");
    }

    @Test
    void rateOnlySweepHasUncappedPointsAndAScalarStandsForAListOfOne() {
        PerformanceSpec spec = SpecReader.parse("""
                name: x
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep:
                  request_rate: 8
                expect:
                  - request_throughput >= 7.5 req/s @ rate=8
                """, "x.yaml");

        assertThat(spec.sweep().points()).containsExactly(new LoadPointKey(0, 8));
        assertThat(spec.expectations().getFirst().point()).hasToString("rate=8");
    }

    @Test
    void promptsScaleWithConcurrencyWithinTheirBounds() {
        PerformanceSpec spec = SpecReader.parse("""
                name: x
                target: {kind: url, url: "http://127.0.0.1:30000"}
                workload:
                  dataset: random
                  input_len: 8
                  output_len: 8
                  prompts: {per_concurrency: 4, min: 32, max: 1000}
                sweep: {concurrency: [1, 16, 512]}
                """, "x.yaml");

        assertThat(spec.sweep().points()).extracting(spec::prompts).containsExactly(32, 64, 1000);
    }

    @Test
    void expectationsKeepTheirOrderPositionsAndResolvedPoints() {
        String text = """
                name: x
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep:
                  concurrency: [1, 64]
                  request_rate: [inf, 8]
                expect:
                  - output_throughput >= 600 tok/s @ concurrency=64
                  - "p99_ttft_ms ≤ 2000 ms @ rate=8, concurrency=64"
                  -   total_throughput@concurrency=64 > 2.5x total_throughput@concurrency=1
                  - 'completed >= 100 requests @ concurrency=1,rate=8'
                """;
        PerformanceSpec spec = SpecReader.parse(text, "x.yaml");

        assertThat(spec.expectations()).extracting(Expectation::displayName).containsExactly(
                "output_throughput ≥ 600 tok/s @ concurrency=64",
                "p99_ttft_ms ≤ 2000 ms @ concurrency=64,rate=8",
                "relative: total_throughput@concurrency=64 > 2.5 × total_throughput@concurrency=1",
                "completed ≥ 100 requests @ concurrency=1,rate=8");
        assertThat(spec.expectations()).extracting(e -> e.position().toString())
                .containsExactly("x.yaml:7:5", "x.yaml:8:6", "x.yaml:9:7", "x.yaml:10:6");
        AbsoluteExpectation latency = (AbsoluteExpectation) spec.expectations().get(1);
        assertThat(latency).isEqualTo(new AbsoluteExpectation(MetricId.P99_TTFT_MS, Comparison.AT_MOST, 2000,
                Unit.MILLISECONDS, new LoadPointKey(64, 8), latency.position()));
        RelativeExpectation scaling = (RelativeExpectation) spec.expectations().get(2);
        assertThat(scaling.points()).containsExactly(LoadPointKey.concurrency(64), LoadPointKey.concurrency(1));
        assertThat(scaling.factor()).isEqualTo(2.5);
    }
}
