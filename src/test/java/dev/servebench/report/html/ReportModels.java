package dev.servebench.report.html;

import dev.servebench.results.RunVerdictsJson;
import dev.servebench.metric.MetricId;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Hand-built report models: every section filled, or every optional input missing. */
final class ReportModels {

    private ReportModels() {
    }

    static ReportModel complete(String spec) {
        return new ReportModel(spec, "reports/perf/" + spec + "-20261202-153117", "2026-12-02T16:00:00Z",
                Input.found(new EnvironmentView(List.of(new EnvironmentView.Fact("GPU model", "NVIDIA H200"),
                        new EnvironmentView.Fact("servebench commit", "")))),
                Input.found(List.of(new VerdictRow("output_throughput >= 500 tok/s @ concurrency=32", "expectation",
                        "concurrency=32", RunVerdictsJson.Outcome.FAIL, "output_throughput = 422 tok/s < 500"),
                        new VerdictRow("request_goodput > 1000000 req/s @ concurrency=32", "expectation", "concurrency=32",
                                RunVerdictsJson.Outcome.NOT_JUDGED, "not judged: request_goodput @ concurrency=32 was not"
                                + " measured: no goodput SLOs were given"))),
                List.of(point(8, 300, 1100), point(32, 622, 3740)),
                Input.found(new KernelTables("reports/kernels/full/figures.json",
                        List.of(new KernelTables.Figure("NVFP4 dequant", "backend=native", 55.1, "GB/s",
                                "memcpy 56.2 GB/s", "/ memcpy 0.98×")))),
                Input.found(new TrendView("reports/history/" + spec + ".jsonl", "0123456789abcdef", 12,
                        List.of(trend()))));
    }

    static ReportModel withoutOptionalInputs(String spec) {
        ReportModel full = complete(spec);
        List<LoadPointView> points = full.points().stream().map(p -> new LoadPointView(p.point(), p.valid(),
                p.requested(), p.repeats(), p.metrics(), Input.<LoadPointView.RepeatRecords>missing(
                "no " + p.point() + " records"))).toList();
        return new ReportModel(spec, full.runDirectory(), full.generatedAt(), Input.missing("no environment.json in X"),
                Input.missing("no verdicts.json in X"), points, Input.missing("no kernels run found under Y"),
                Input.missing("no history for fingerprint 0123456789abcdef in Z"));
    }

    /** A point whose sustained output is {@code output} tok/s and total (input + output) {@code total}. */
    static LoadPointView point(int concurrency, double output, double total) {
        Map<MetricId, LoadPointView.Spread> metrics = new EnumMap<>(MetricId.class);
        metrics.put(MetricId.OUTPUT_THROUGHPUT, new LoadPointView.Spread(output, output * 0.97, output * 1.02));
        metrics.put(MetricId.INPUT_THROUGHPUT, LoadPointView.Spread.of(total - output));
        metrics.put(MetricId.TOTAL_THROUGHPUT, LoadPointView.Spread.of(total));
        metrics.put(MetricId.PEAK_OUTPUT_THROUGHPUT, LoadPointView.Spread.of(output * 2.1));
        for (List<MetricId> family : PerformanceSections.LATENCIES.values()) {
            for (int i = 0; i < family.size(); i++) {
                metrics.put(family.get(i), LoadPointView.Spread.of(concurrency * (1 + i) * 1.5));
            }
        }
        long[] buckets = new long[20];
        for (int s = 0; s < buckets.length; s++) {
            buckets[s] = (long) (s % 5 == 3 ? output * 2.1 : s % 5 == 2 ? output * 0.2 : output);
        }
        double[] ttft = {0.08, 0.09, 0.11, 0.35};
        double[] itl = {0.010, 0.011, 0.012, 0.4};
        return new LoadPointView("concurrency=" + concurrency, true, 4 * concurrency, 3, metrics,
                Input.found(new LoadPointView.RepeatRecords("repeat 2 of 3 (median output_throughput)",
                        "concurrency-" + concurrency + ".r2.records.jsonl", buckets, Percentiles.of(ttft, 1000), Percentiles.of(itl, 1000))));
    }

    private static TrendView.Series trend() {
        List<TrendView.Run> runs = new java.util.ArrayList<>();
        for (int i = 0; i < 12; i++) {
            runs.add(new TrendView.Run("c0ffee" + i, "2026-11-" + (10 + i), i < 6 ? 620 : 530));
        }
        return new TrendView.Series("output_throughput", "tok/s", "concurrency=32", runs,
                List.of(new TrendView.Shift(6, -0.145, 0.002, "c0ffee5", "c0ffee6")));
    }
}
