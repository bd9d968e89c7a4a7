package dev.servebench.report.html;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.kernels.results.AllreduceFigure;
import dev.servebench.kernels.results.CopyFigure;
import dev.servebench.kernels.results.DequantFigure;
import dev.servebench.kernels.results.KernelReport;
import dev.servebench.kernels.results.MoeFigure;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.MetricOptions;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.telemetry.RunEnvironment;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RequestRecord;
import dev.servebench.telemetry.TelemetryJson;
import dev.servebench.telemetry.gpu.InstalledGpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * A perf run directory as the suite writes it (environment.json, measurements.json, records and summaries
 * per repeat) plus verdicts.json, a kernels run and a history, all from deterministic synthetic records.
 */
final class RunDirectoryFixture {

    static final String SPEC = "demo";
    static final String RUN = "demo-20261202-153117";
    static final int[] CONCURRENCIES = {1, 4, 16};
    static final int REPEATS = 3;
    /** Repeat r runs at 1 + SLOWDOWN[r - 1]: repeat 2 is the median of output_throughput. */
    static final double[] SLOWDOWN = {1.00, 1.04, 1.09};
    static final int HISTORY_RUNS = 16;

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private RunDirectoryFixture() {
    }

    static RunEnvironment environment() {
        return new RunEnvironment(SPEC, "ab".repeat(32), "process", "process `vllm serve demo-model --tp 8` (pid 42) at"
                + " http://127.0.0.1:8000, vLLM 0.11.0", "demo-model",
                java.util.Collections.nCopies(8, new InstalledGpu("NVIDIA H200", "570.124.06", 143771L)),
                "AMD EPYC 9654", 192, "25.0.1", "Linux 6.8", "0123456789abcdef0123456789abcdef01234567");
    }

    /** Writes everything under {@code parent}; returns the run directory (parent/perf/RUN). */
    static Path write(Path parent) throws IOException {
        Path run = Files.createDirectories(parent.resolve("perf").resolve(RUN));
        TelemetryJson.write(run.resolve("environment.json"), environment());
        ObjectNode measurements = JSON.createObjectNode().put("spec", SPEC).put("spec_sha256", "ab".repeat(32))
                .put("target", "process").put("repeats", REPEATS);
        ArrayNode points = measurements.putArray("points");
        for (int concurrency : CONCURRENCIES) {
            ObjectNode point = points.addObject().put("point", "concurrency=" + concurrency)
                    .put("requested", requests(concurrency)).put("valid", concurrency != 16);
            ArrayNode repeats = point.putArray("repeats");
            for (int repeat = 1; repeat <= REPEATS; repeat++) {
                List<RequestRecord> records = SyntheticLoad.closedLoop(concurrency, requests(concurrency),
                        concurrency * 100L + repeat, SLOWDOWN[repeat - 1]);
                Files.write(run.resolve("concurrency-" + concurrency + ".r" + repeat + ".records.jsonl"),
                        records.stream().map(RecordJsonl::toLine).toList());
                ServingSummary summary = SummaryCalculator.compute(records, SyntheticLoad.duration(records),
                        MetricOptions.defaults());
                ObjectNode values = repeats.addObject();
                for (MetricId metric : MetricId.values()) {
                    OptionalDouble value = summary.value(metric);
                    if (value.isPresent() && Double.isFinite(value.getAsDouble())) {
                        values.put(metric.id(), value.getAsDouble());
                    }
                }
            }
        }
        Files.writeString(run.resolve("measurements.json"), JSON.writeValueAsString(measurements));
        Files.writeString(run.resolve("verdicts.json"), """
                {"spec": "demo", "verdicts": [
                  {"name": "output_throughput >= 50 tok/s @ concurrency=1", "kind": "expectation",
                   "point": "concurrency=1", "outcome": "pass", "reason": "output_throughput = 61.2 tok/s >= 50"},
                  {"name": "p99_ttft_ms <= 150 ms @ concurrency=16", "kind": "expectation", "point": "concurrency=16",
                   "outcome": "invalid", "reason": "point invalid: client dispatch lag p99 12 ms > 5 ms"},
                  {"name": "output_throughput >= 900 tok/s @ concurrency=4", "kind": "expectation",
                   "point": "concurrency=4", "outcome": "fail", "reason": "output_throughput = 201 tok/s < 900"},
                  {"name": "request_goodput > 1000000 req/s @ concurrency=4", "kind": "expectation",
                   "point": "concurrency=4", "outcome": "not_judged",
                   "reason": "not judged: request_goodput @ concurrency=4 was not measured: no goodput SLOs were given",
                   "summary": "request_goodput @ concurrency=4 was not measured: no goodput SLOs were given"},
                  {"name": "server token counts match the client's", "kind": "cross_check", "point": null,
                   "outcome": "pass", "reason": "generation_tokens_total delta 1728 = client 1728"},
                  {"name": "moe_gflops@backend=native,tokens=64 ≥ 0.8 × moe_gflops@backend=ggml-q4_0", "kind": "kernel",
                   "point": null, "outcome": "fail",
                   "reason": "moe_gflops@backend=native,tokens=64 = 98.7 GFLOP/s = 0.72 × moe_gflops@…; expected ≥ 0.8 ×",
                   "summary": "98.7 GFLOP/s = 0.72 × 137 GFLOP/s, expected ≥ 0.8 × 137 = 109.6 GFLOP/s"}]}
                """);
        writeKernels(Files.createDirectories(parent.resolve("kernels").resolve("full-20261202-120000")));
        writeHistory(Files.createDirectories(parent.resolve("history")));
        return run;
    }

    /** The commit of the night's history run: its first ten characters tell the nights apart. */
    static String commit(int night) {
        return String.format("c0ffee%04d", night) + "a".repeat(30);
    }

    static int requests(int concurrency) {
        return 3 * concurrency + 4;
    }

    private static void writeKernels(Path directory) throws IOException {
        KernelReport report = new KernelReport(
                List.of(new CopyFigure(256L << 20, 2, 9.5, 0.8, 56.2, 14.1)),
                List.of(new DequantFigure("native", "bf16", "linear", 16384, 8192, 2, 75497472, 6.24, 2.39, 55.1, 21.5,
                        56.2, 0.98, 46.5)),
                List.of(new MoeFigure("native", "6144x256x256x8", 64, 2, 1.9, 0.1, 98.7, 41.2, 1.31, 0.72, 0.64, 37.0)),
                List.of(new AllreduceFigure("native", 2, 4L << 20, "ring", "shared", 210.0, 4.0, 19.97, 19.97, 14.1,
                        1.42)));
        Files.writeString(directory.resolve("figures.json"), JSON.writeValueAsString(report));
    }

    /** Nightly runs of this environment; output_throughput at concurrency=16 drops 15 % from run 9 on. */
    private static void writeHistory(Path directory) throws IOException {
        String fingerprint = environment().fingerprint();
        List<String> lines = new ArrayList<>();
        for (int night = 0; night < HISTORY_RUNS; night++) {
            double wobble = 1 + 0.01 * ((night * 7) % 5 - 2);
            double drop = night < 8 ? 1.0 : 0.85;
            ObjectNode line = new ObjectMapper().createObjectNode().put("spec", SPEC).put("fingerprint", fingerprint)
                    .put("commit", commit(night))
                    .put("time", String.format("2026-11-%02dT02:00:00Z", night + 10)).put("run", "night-" + night);
            ObjectNode medians = line.putObject("medians");
            for (int concurrency : CONCURRENCIES) {
                double output = 40.0 * concurrency * wobble * (concurrency == 16 ? drop : 1.0);
                medians.putObject("concurrency=" + concurrency).put("output_throughput", output)
                        .put("p99_ttft_ms", 70.0 + 8 * concurrency * wobble).put("p99_itl_ms", 14.0 + concurrency);
            }
            lines.add(new ObjectMapper().writeValueAsString(line));
        }
        Files.write(directory.resolve(SPEC + ".jsonl"), lines);
    }
}
