package dev.servebench.suite;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.kernels.results.KernelMeasurementsJson;
import dev.servebench.metric.KernelMetric;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.testserver.Fault;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.Event;

/**
 * The perf suite's contract, proven by running it through the JUnit engine against the scripted server:
 * each expectation is its own test, an unreachable output-throughput threshold fails alone while the
 * total-throughput one beside it passes, and the failure shows both numbers; kernel expectations likewise,
 * on hand-built kernel figures.
 */
class SpecSuiteEngineTest {

    @TempDir
    Path directory;

    private ScriptedServer server;

    @BeforeEach
    void startServer() {
        server = SuiteRun.startScriptedServer();
    }

    @AfterEach
    void stopServer() {
        server.close();
    }

    @Test
    void unreachableOutputThresholdFailsAloneAndItsMessageNamesBothThroughputs() throws IOException {
        Path spec = writeSpec("""
                expect:
                  - output_throughput >= 1000000000 tok/s @ concurrency=4
                  - total_throughput >= 1 tok/s @ concurrency=4
                """);

        EngineExecutionResults results = run(spec);

        List<Event> failed = results.testEvents().failed().list();
        assertThat(failed).singleElement().satisfies(event -> {
            assertThat(event.getTestDescriptor().getDisplayName())
                    .isEqualTo("output_throughput ≥ 1000000000 tok/s @ concurrency=4");
            String message = event.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                    .getThrowable().orElseThrow().getMessage();
            assertThat(message).contains("output_throughput @ concurrency=4 = ")
                    .containsPattern("total_throughput = [0-9,.]+ tok/s")
                    .contains("input_throughput = ").contains("peak_output_throughput = ")
                    .contains("tokens: ");
        });
        assertThat(results.testEvents().succeeded().list())
                .extracting(e -> e.getTestDescriptor().getDisplayName())
                .contains("measure @ concurrency=4", "total_throughput ≥ 1 tok/s @ concurrency=4")
                .anyMatch(name -> name.startsWith("validity: completed requests"));
        // The scripted server has no /metrics: the cross-check says so instead of passing.
        assertThat(results.testEvents().aborted().list()).singleElement().satisfies(event -> assertThat(
                event.getTestDescriptor().getDisplayName()).startsWith("server /metrics agrees"));
        assertThat(Files.list(directory.resolve("reports")).toList()).singleElement()
                .satisfies(run -> assertThat(run.resolve("concurrency-4.summary.json")).exists()
                        .satisfies(summary -> assertThat(run.resolve("concurrency-4.records.jsonl")).exists())
                        .satisfies(summary -> {
                            JsonNode measurements = new ObjectMapper().readTree(run.resolve("measurements.json").toFile());
                            assertThat(measurements.path("spec").asText()).isEqualTo("scripted");
                            assertThat(measurements.path("spec_sha256").asText()).hasSize(64);
                            assertThat(measurements.path("points").get(0).path("valid").asBoolean()).isTrue();
                            assertThat(measurements.path("points").get(0).path("repeats").get(0)
                                    .path("output_throughput").asDouble()).isPositive();
                            assertThat(measurements.path("points").get(0).path("repeats").get(0)
                                    .path("machine_probe_ms").asDouble()).isPositive();
                            JsonNode environment = new ObjectMapper().readTree(run.resolve("environment.json").toFile());
                            assertThat(environment.path("fingerprint").asText()).hasSize(16);
                            assertThat(environment.path("target_kind").asText()).isEqualTo("url");
                            assertThat(environment.path("cpus").asInt()).isPositive();
                            JsonNode verdicts = new ObjectMapper().readTree(run.resolve("verdicts.json").toFile());
                            assertThat(verdicts.path("verdicts")).anySatisfy(v -> {
                                assertThat(v.path("name").asText()).isEqualTo("output_throughput ≥ 1000000000 tok/s @ concurrency=4");
                                assertThat(v.path("kind").asText()).isEqualTo("expectation");
                                assertThat(v.path("point").asText()).isEqualTo("concurrency=4");
                                assertThat(v.path("outcome").asText()).isEqualTo("fail");
                                assertThat(v.path("reason").asText()).contains("output_throughput @ concurrency=4 = ");
                            }).anySatisfy(v -> {
                                assertThat(v.path("name").asText()).isEqualTo("total_throughput ≥ 1 tok/s @ concurrency=4");
                                assertThat(v.path("outcome").asText()).isEqualTo("pass");
                                assertThat(v.path("reason").asText()).contains("total_throughput");
                            }).anySatisfy(v -> {
                                assertThat(v.path("kind").asText()).isEqualTo("cross_check");
                                assertThat(v.path("outcome").asText()).isEqualTo("invalid");
                            });
                        }));
    }

    @Test
    void junitAndVerdictsJsonAgreeOnPassFailAndNotJudgedAndAnUnmeasuredMetricNeverPasses() throws IOException {
        Path spec = writeSpec("""
                expect:
                  - total_throughput >= 1 tok/s @ concurrency=4
                  - output_throughput >= 1000000000 tok/s @ concurrency=4
                  - request_goodput > 1000000 req/s @ concurrency=4
                  - request_goodput@concurrency=4 >= 1 x request_throughput@concurrency=4
                """);
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        EngineExecutionResults results;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            results = run(spec);
        } finally {
            System.setOut(console);
        }

        Map<String, String> junit = new HashMap<>();
        results.testEvents().succeeded().list().forEach(e -> junit.put(e.getTestDescriptor().getDisplayName(), "pass"));
        results.testEvents().failed().list().forEach(e -> junit.put(e.getTestDescriptor().getDisplayName(), "failed"));
        results.testEvents().aborted().list().forEach(e -> junit.put(e.getTestDescriptor().getDisplayName(), "aborted"));
        Path run = Files.list(directory.resolve("reports")).toList().getFirst();
        JsonNode verdicts = new ObjectMapper().readTree(run.resolve("verdicts.json").toFile()).path("verdicts");
        Map<String, String> recorded = new HashMap<>();
        verdicts.forEach(v -> recorded.put(v.path("name").asText(), v.path("outcome").asText()));
        assertThat(recorded).containsEntry("total_throughput ≥ 1 tok/s @ concurrency=4", "pass")
                .containsEntry("output_throughput ≥ 1000000000 tok/s @ concurrency=4", "fail")
                .containsEntry("request_goodput > 1000000 req/s @ concurrency=4", "not_judged")
                .containsEntry("relative: request_goodput@concurrency=4 ≥ 1 × request_throughput@concurrency=4",
                        "not_judged");
        // Every judged test, case by case: pass ↔ succeeded, fail and not_judged ↔ failed, invalid ↔ aborted.
        assertThat(recorded).hasSize(verdicts.size()).allSatisfy((name, outcome) -> assertThat(junit.get(name))
                .as(name).isEqualTo(switch (outcome) {
                    case "pass" -> "pass";
                    case "fail", "not_judged" -> "failed";
                    case "invalid" -> "aborted";
                    default -> throw new AssertionError(name + ": outcome " + outcome);
                }));
        assertThat(results.testEvents().failed().list()).filteredOn(e -> e.getTestDescriptor().getDisplayName()
                .equals("request_goodput > 1000000 req/s @ concurrency=4")).singleElement().satisfies(event ->
                assertThat(event.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                        .getThrowable().orElseThrow().getMessage()).startsWith("not judged: request_goodput @"
                        + " concurrency=4 was not measured: no goodput SLOs were given\n"));
        assertThat(verdicts).anySatisfy(v -> {
            assertThat(v.path("name").asText()).isEqualTo("request_goodput > 1000000 req/s @ concurrency=4");
            assertThat(v.path("summary").asText()).isEqualTo("request_goodput @ concurrency=4 was not measured: no"
                    + " goodput SLOs were given; expected > 1000000 req/s");
        });
        // The run ends with its console summary, worst first.
        String summary = printed.toString(StandardCharsets.UTF_8);
        assertThat(summary).contains(" servebench perf run: scripted ", "Output token throughput (tok/s):",
                "P99 ITL (ms):", "verdicts: 1 fail, 0 inconclusive, 2 not judged, 1 invalid, ")
                .containsPattern("\n  FAIL {7}output_throughput ≥ 1000000000 tok/s: [0-9.]+ tok/s, expected ≥"
                        + " 1000000000 tok/s\n  NOT JUDGED request_goodput > 1000000 req/s: request_goodput @"
                        + " concurrency=4 was not measured: no goodput SLOs were given; expected > 1000000 req/s\n")
                .contains("  NOT JUDGED relative: request_goodput@concurrency=4 ≥ 1 × request_throughput@concurrency=4:"
                        + " request_goodput@concurrency=4 was not measured: no goodput SLOs were given;");
    }

    @Test
    void anInvalidPointAbortsItsExpectationsInsteadOfJudgingThem() throws IOException {
        server.close();
        // Readiness (request 0) and warmup (request 1) succeed; from request 10 on the server answers 500,
        // so 16 of the 24 measured requests fail: far below the 99 % the point needs to be judged.
        Plan failing = Plan.builder().fault(Fault.httpError(500, "server_error", "scripted failure")).build();
        server = ScriptedServer.start(Script.builder().byIndex(index -> index >= 10 ? failing : null).build());
        Path spec = writeSpec("""
                expect:
                  - output_throughput >= 1 tok/s @ concurrency=4
                """);

        EngineExecutionResults results = run(spec);

        assertThat(results.testEvents().aborted().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                .contains("output_throughput ≥ 1 tok/s @ concurrency=4");
        assertThat(results.testEvents().failed().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                .anyMatch(name -> name.startsWith("validity: completed requests"));
        Path run = Files.list(directory.resolve("reports")).toList().getFirst();
        JsonNode verdicts = new ObjectMapper().readTree(run.resolve("verdicts.json").toFile()).path("verdicts");
        assertThat(verdicts).anySatisfy(v -> {
            assertThat(v.path("name").asText()).isEqualTo("output_throughput ≥ 1 tok/s @ concurrency=4");
            assertThat(v.path("outcome").asText()).isEqualTo("invalid");
            assertThat(v.path("reason").asText()).contains("is invalid");
        }).anySatisfy(v -> {
            assertThat(v.path("name").asText()).startsWith("validity: completed requests");
            assertThat(v.path("outcome").asText()).isEqualTo("fail");
        });
    }

    @Test
    void aContainerSpecWithoutDockerIsSkippedWithTheReasonNotFailed() throws IOException {
        org.junit.jupiter.api.Assumptions.assumeFalse(dev.servebench.server.container.DockerAvailability.available(),
                "Docker is available here: the container target would really start");
        Path spec = directory.resolve("container.yaml");
        Files.writeString(spec, """
                name: container
                description: SGLang in a container; this machine has no Docker
                target:
                  kind: container
                  image: lmsysorg/sglang:latest
                  command: [python3, -m, sglang.launch_server, --model-path, some/model, --host, 0.0.0.0, --port, "30000"]
                  port: 30000
                  gpus: all
                  backend: sglang-oai
                workload:
                  dataset: random
                  input_len: 32
                  output_len: 16
                  prompts: 8
                sweep:
                  concurrency: [1, 4]
                expect:
                  - output_throughput >= 1 tok/s @ concurrency=4
                """);

        // servebench.image (the Jenkinsfile's SERVER_IMAGE) replaces the spec's image.
        EngineExecutionResults results = run(spec, "servebench.image", "lmsysorg/sglang:v0.5.6");

        assertThat(results.testEvents().failed().list()).isEmpty();
        assertThat(results.testEvents().succeeded().list()).isEmpty();
        List<String> messages = results.testEvents().aborted().list().stream().map(event -> event
                .getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable()
                .orElseThrow().getMessage()).toList();
        assertThat(messages).isNotEmpty().allSatisfy(message -> assertThat(message).contains("container target")
                .contains("Docker")).anySatisfy(message -> assertThat(message).contains("lmsysorg/sglang:v0.5.6"))
                .noneSatisfy(message -> assertThat(message).contains("sglang:latest"));
    }

    @Test
    void interleavedRepeatsRunRoundRobinAndEachPointIsStillJudgedOnItsOwn() throws IOException {
        Path spec = directory.resolve("interleaved.yaml");
        Files.writeString(spec, """
                name: interleaved
                target:
                  kind: url
                  url: %s
                  backend: openai
                workload:
                  dataset: random
                  input_len: 32
                  output_len: 16
                  range_ratio: 1.0
                  prompts: 6
                sweep:
                  concurrency: [1, 3]
                warmup: 1
                repeats: 3
                repeat_order: interleaved
                expect:
                  - output_throughput >= 1 tok/s @ concurrency=1
                  - output_throughput >= 1000000000 tok/s @ concurrency=3
                """.formatted(server.baseUri()));

        EngineExecutionResults results = run(spec);

        assertThat(results.testEvents().failed().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                .containsExactly("output_throughput ≥ 1000000000 tok/s @ concurrency=3");
        assertThat(results.testEvents().succeeded().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                .contains("measure @ concurrency=1", "measure @ concurrency=3",
                        "output_throughput ≥ 1 tok/s @ concurrency=1");
        Path run = Files.list(directory.resolve("reports")).toList().getFirst();
        // Each repeat's summary is written when the repeat ends: their times order the repeats.
        List<String> order = Stream.of("concurrency-1.r1", "concurrency-3.r1", "concurrency-1.r2", "concurrency-3.r2",
                "concurrency-1.r3", "concurrency-3.r3").sorted(Comparator.comparing(stem -> written(run, stem)))
                .toList();
        assertThat(order).containsExactly("concurrency-1.r1", "concurrency-3.r1", "concurrency-1.r2",
                "concurrency-3.r2", "concurrency-1.r3", "concurrency-3.r3");
        JsonNode measurements = new ObjectMapper().readTree(run.resolve("measurements.json").toFile());
        assertThat(measurements.path("repeat_order").asText()).isEqualTo("interleaved");
        assertThat(measurements.path("points")).hasSize(2)
                .allSatisfy(point -> assertThat(point.path("repeats")).hasSize(3));
    }

    @Test
    void aKernelExpectationOutOfReachFailsTheSuiteWithExactlyThatTest() throws IOException {
        Path kernels = Files.createDirectories(directory.resolve("kernels").resolve("smoke-20261204-120000"));
        Map<String, String> moe = Map.of("shape", "6144x256x256x8", "tokens", "64", "threads", "2");
        Map<String, String> dequant = Map.of("backend", "native", "output", "bf16", "layout", "linear", "rows",
                "16384", "k", "8192", "threads", "2");
        // Figures as the runner writes them: native MoE 3x ggml F16, dequant at 0.9x memcpy.
        KernelMeasurementsJson.write(kernels.resolve(KernelMeasurementsJson.FILE_NAME), "hand-built", List.of(
                figure(KernelMetric.MEMCPY_GBPS, Map.of("bytes", "268435456", "threads", "2"), 50),
                figure(KernelMetric.NVFP4_DEQUANT_GBPS, dequant, 45),
                figure(KernelMetric.MOE_GFLOPS, with(moe, "backend", "native"), 129),
                figure(KernelMetric.MOE_GFLOPS, with(moe, "backend", "ggml-f16"), 43)));
        Path spec = writeSpec("""
                expect:
                  - total_throughput >= 1 tok/s @ concurrency=4
                kernels:
                  - nvfp4_dequant_gbps@backend=native,output=bf16 >= 0.8 x memcpy_gbps@bytes=256MiB
                  - moe_gflops@backend=native,tokens=64 >= 1 x moe_gflops@backend=ggml-f16
                  - moe_gflops@backend=native,tokens=64 >= 100 x moe_gflops@backend=ggml-f16
                """);
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        EngineExecutionResults results;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            results = run(spec, "servebench.kernels.results", kernels.toString());
        } finally {
            System.setOut(console);
        }

        String outOfReach = "moe_gflops@backend=native,tokens=64 ≥ 100 × moe_gflops@backend=ggml-f16";
        assertThat(results.testEvents().failed().list()).singleElement().satisfies(event -> {
            assertThat(event.getTestDescriptor().getDisplayName()).isEqualTo(outOfReach);
            assertThat(event.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                    .getThrowable().orElseThrow().getMessage()).startsWith("FAILED: " + outOfReach + "\n"
                    + "  moe_gflops@backend=native,tokens=64 = 129 GFLOP/s = 3 × moe_gflops@backend=ggml-f16,tokens=64"
                    + " (43 GFLOP/s); expected ≥ 100 × moe_gflops@backend=ggml-f16 (4300 GFLOP/s); ratio 3 × (95 %"
                    + " interval 3–3 ×)\n");
        });
        assertThat(results.testEvents().succeeded().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                .contains("total_throughput ≥ 1 tok/s @ concurrency=4",
                        "nvfp4_dequant_gbps@backend=native,output=bf16 ≥ 0.8 × memcpy_gbps@bytes=256MiB",
                        "moe_gflops@backend=native,tokens=64 ≥ 1 × moe_gflops@backend=ggml-f16");
        Path run = Files.list(directory.resolve("reports")).toList().getFirst();
        JsonNode verdicts = new ObjectMapper().readTree(run.resolve("verdicts.json").toFile()).path("verdicts");
        assertThat(verdicts).filteredOn(v -> v.path("kind").asText().equals("kernel"))
                .extracting(v -> v.path("outcome").asText()).containsExactly("pass", "pass", "fail");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains(" kernels (same-run baselines) ",
                "  FAIL       " + outOfReach + ": 129 GFLOP/s = 3 × 43 GFLOP/s (95 % interval 3–3 ×), expected ≥ 100 × 43"
                        + " = 4300 GFLOP/s\n");
    }

    @Test
    void aKernelLineWhoseIntervalStraddlesItsLimitIsAnAbortedTestWithTheIntervalNeverAPass() throws IOException {
        Path kernels = Files.createDirectories(directory.resolve("kernels").resolve("smoke-20261204-120000"));
        Map<String, String> moe = Map.of("shape", "6144x256x256x8", "tokens", "64", "threads", "2");
        // Native at 0.81 × Q4_0, both forks' iterations ±10 %: 95 % interval 0.6097–1.0762 × (KernelJudgeTest).
        KernelMeasurementsJson.write(kernels.resolve(KernelMeasurementsJson.FILE_NAME), "hand-built", List.of(
                spread(with(moe, "backend", "native"), 81), spread(with(moe, "backend", "ggml-q4_0"), 100)));
        Path spec = writeSpec("""
                kernels:
                  - moe_gflops@backend=native,tokens=64 >= 0.8 x moe_gflops@backend=ggml-q4_0
                """);
        String line = "moe_gflops@backend=native,tokens=64 ≥ 0.8 × moe_gflops@backend=ggml-q4_0";
        PrintStream console = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        EngineExecutionResults results;
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            results = run(spec, "servebench.kernels.results", kernels.toString());
        } finally {
            System.setOut(console);
        }

        assertThat(results.testEvents().aborted().list()).filteredOn(event -> event.getTestDescriptor()
                .getDisplayName().equals(line)).singleElement().satisfies(event -> {
            assertThat(event.getPayload(org.junit.platform.engine.TestExecutionResult.class).orElseThrow()
                    .getThrowable().orElseThrow()).isInstanceOf(org.opentest4j.TestAbortedException.class)
                    .message().startsWith("INCONCLUSIVE: " + line + "\n")
                    .contains("ratio 0.81 × (95 % interval 0.6097–1.0762 ×, which straddles ≥ 0.8 ×)");
        });
        assertThat(results.testEvents().succeeded().list()).extracting(e -> e.getTestDescriptor().getDisplayName())
                .doesNotContain(line);
        Path run = Files.list(directory.resolve("reports")).toList().getFirst();
        JsonNode verdicts = new ObjectMapper().readTree(run.resolve("verdicts.json").toFile()).path("verdicts");
        assertThat(verdicts).filteredOn(v -> v.path("kind").asText().equals("kernel")).singleElement()
                .satisfies(v -> assertThat(v.path("outcome").asText()).isEqualTo("inconclusive"));
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains(", 1 inconclusive, ",
                "  INCONCLUSIVE " + line + ": 81 GFLOP/s = 0.81 × 100 GFLOP/s (95 % interval 0.6097–1.0762 ×),"
                        + " expected ≥ 0.8 × 100 = 80 GFLOP/s\n");
    }

    private static KernelMeasurements.Value spread(Map<String, String> parameters, double value) {
        return new KernelMeasurements.Value(KernelMetric.MOE_GFLOPS, parameters, value,
                List.of(List.of(value * Math.exp(-0.1), value, value * Math.exp(0.1))));
    }

    @Test
    void kernelExpectationsWithoutThisBuildsKernelRunAreNotJudgedAndFailWithTheReason() throws IOException {
        Path spec = writeSpec("""
                kernels:
                  - moe_gflops@backend=native,tokens=64 >= 1 x moe_gflops@backend=ggml-f16
                """);

        EngineExecutionResults skipped = run(spec, "servebench.kernels.skip", "true");
        EngineExecutionResults missing = run(spec, "servebench.kernels.results", directory.resolve("nothing").toString());

        assertThat(failureOf(skipped, "moe_gflops@backend=native,tokens=64 ≥ 1 × moe_gflops@backend=ggml-f16"))
                .startsWith("not judged: moe_gflops@backend=native,tokens=64 was not measured: the kernel benchmarks"
                        + " were skipped (-Dservebench.kernels.skip=true); ");
        assertThat(failureOf(missing, "moe_gflops@backend=native,tokens=64 ≥ 1 × moe_gflops@backend=ggml-f16"))
                .startsWith("not judged: moe_gflops@backend=native,tokens=64 was not measured: no kernel results at "
                        + directory.resolve("nothing") + " (the kernel benchmark runner writes kernel-measurements.json");
        for (Path run : Files.list(directory.resolve("reports")).toList()) {
            JsonNode verdicts = new ObjectMapper().readTree(run.resolve("verdicts.json").toFile()).path("verdicts");
            assertThat(verdicts).filteredOn(v -> v.path("kind").asText().equals("kernel")).singleElement()
                    .satisfies(v -> assertThat(v.path("outcome").asText()).isEqualTo("not_judged"));
        }
    }

    private static String failureOf(EngineExecutionResults results, String test) {
        return results.testEvents().failed().list().stream()
                .filter(e -> e.getTestDescriptor().getDisplayName().equals(test)).findFirst()
                .orElseThrow(() -> new AssertionError(test + " did not fail")).getPayload(
                        org.junit.platform.engine.TestExecutionResult.class).orElseThrow().getThrowable().orElseThrow()
                .getMessage();
    }

    private static KernelMeasurements.Value figure(KernelMetric metric, Map<String, String> parameters, double value) {
        return new KernelMeasurements.Value(metric, parameters, value, List.of(List.of(value, value, value)));
    }

    private static Map<String, String> with(Map<String, String> base, String key, String value) {
        Map<String, String> copy = new HashMap<>(base);
        copy.put(key, value);
        return copy;
    }

    private static FileTime written(Path run, String stem) {
        try {
            return Files.getLastModifiedTime(run.resolve(stem + ".summary.json"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private EngineExecutionResults run(Path spec, String... parameters) {
        return SuiteRun.onSpec(spec, directory.resolve("reports"), parameters);
    }

    private Path writeSpec(String expectations) throws IOException {
        return SuiteRun.writeScriptedSpec(directory, server.baseUri(), expectations);
    }
}
