package dev.servebench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.servebench.metric.MetricId;
import dev.servebench.report.RunSummary.Line;
import dev.servebench.report.RunSummary.Outcome;
import dev.servebench.report.RunSummary.Point;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The console summary a perf run ends with, from hand-built points and verdicts. */
class RunSummaryTest {

    /** Two decimals are rounded half-even on the exact binary value, as SGLang's format does: 824.665 → 824.66. */
    private static final Map<MetricId, Double> HEADLINE = Map.of(MetricId.OUTPUT_THROUGHPUT, 412.334,
            MetricId.PEAK_OUTPUT_THROUGHPUT, 480.0, MetricId.INPUT_THROUGHPUT, 824.665, MetricId.TOTAL_THROUGHPUT, 1237.0,
            MetricId.MEDIAN_TTFT_MS, 12.3, MetricId.P99_TTFT_MS, 20.125, MetricId.MEDIAN_ITL_MS, 18.2,
            MetricId.P99_ITL_MS, 25.0, MetricId.COMPLETED, 96.0, MetricId.FAILED, 0.0);

    private static String render() {
        Point measured = new Point("concurrency=8", 3, HEADLINE, List.of(
                new Line(Outcome.PASS, "validity: completed requests ≥ 99 % @ concurrency=8",
                        "100 % of 96 requests completed (worst repeat), at least 99 % required"),
                new Line(Outcome.PASS, "output_throughput ≥ 100 tok/s @ concurrency=8", "412.334 tok/s, expected ≥ 100 tok/s"),
                new Line(Outcome.NOT_JUDGED, "request_goodput > 1000000 req/s @ concurrency=8",
                        "request_goodput @ concurrency=8 was not measured: no goodput SLOs were given; expected > 1000000 req/s"),
                new Line(Outcome.FAIL, "output_throughput ≥ 600 tok/s @ concurrency=8", "412.334 tok/s, expected ≥ 600 tok/s"),
                new Line(Outcome.INVALID, "server /metrics agrees with the client's token counts @ concurrency=8",
                        "server unknown: no known counters")));
        Point unmeasured = new Point("concurrency=32", 0, Map.of(), List.of(new Line(Outcome.INVALID,
                "output_throughput ≥ 1 tok/s @ concurrency=32", "load point concurrency=32 could not be measured: refused")));
        return RunSummary.render("demo", List.of(measured, unmeasured), List.of(new Line(Outcome.PASS,
                "relative: output_throughput@concurrency=32 ≥ 1.5 × output_throughput@concurrency=8", "… 2 ×")),
                List.of(new Line(Outcome.PASS, "moe_gflops@backend=native,tokens=64 ≥ 1 × moe_gflops@backend=ggml-f16",
                        "130 GFLOP/s = 3 × 43 GFLOP/s, expected ≥ 1 × 43 = 43 GFLOP/s"),
                        new Line(Outcome.FAIL, "allreduce_busbw_gbps@bytes=4MiB ≥ 0.5 × memcpy_per_thread_gbps@bytes=8MiB",
                                "3 GB/s = 0.3 × 10 GB/s, expected ≥ 0.5 × 10 = 5 GB/s")));
    }

    @Test
    void eachPointShowsItsSglangHeadlineThenItsVerdictsWorstFirst() {
        String text = render();

        assertThat(text).contains("""
                ------------------------------- concurrency=8 (median of 3 repeats) --------------------------------
                Output token throughput (tok/s):       412.33       Peak output token throughput (tok/s):  480.00
                Input token throughput (tok/s):        824.66       Total token throughput (tok/s):        1237.00
                Median TTFT (ms):                      12.30        P99 TTFT (ms):                         20.12
                Median ITL (ms):                       18.20        P99 ITL (ms):                          25.00
                Successful requests:                   96           Failed requests:                       0
                  FAIL       output_throughput ≥ 600 tok/s: 412.334 tok/s, expected ≥ 600 tok/s
                  NOT JUDGED request_goodput > 1000000 req/s: request_goodput @ concurrency=8 was not measured: no goodput SLOs were given; expected > 1000000 req/s
                  INVALID    server /metrics agrees with the client's token counts: server unknown: no known counters
                  pass       validity: completed requests ≥ 99 %: 100 % of 96 requests completed (worst repeat), at least 99 % required
                  pass       output_throughput ≥ 100 tok/s: 412.334 tok/s, expected ≥ 100 tok/s
                """);
    }

    @Test
    void aPointWithABoundShowsItUnderItsHeadline() {
        Point point = new Point("concurrency=1", 1, HEADLINE, Optional.of("bound 480 output tok/s, limited by"
                + " communication"), List.of(new Line(Outcome.PASS, "completed ≥ 1 requests @ concurrency=1", "96")));

        assertThat(RunSummary.render("demo", List.of(point), List.of(), List.of())).contains("""
                Successful requests:                   96           Failed requests:                       0
                Speed of light: bound 480 output tok/s, limited by communication
                  pass       completed ≥ 1 requests: 96
                """);
        assertThat(render()).doesNotContain("Speed of light");
    }

    @Test
    void theRunIsCountedFirstAndUnmeasuredPointsRelativeAndKernelExpectationsFollow() {
        String text = render();

        assertThat(text.lines().skip(1).findFirst()).hasValueSatisfying(line -> assertThat(line)
                .contains(" servebench perf run: demo ").startsWith("=").hasSize(100));
        assertThat(text).contains("9 verdicts: 2 fail, 0 inconclusive, 1 not judged, 2 invalid, 4 pass\n");
        assertThat(text).contains("""
                ----------------------------------- concurrency=32: not measured -----------------------------------
                  INVALID    output_throughput ≥ 1 tok/s: load point concurrency=32 could not be measured: refused
                ---------------------------------------- across load points ----------------------------------------
                  pass       relative: output_throughput@concurrency=32 ≥ 1.5 × output_throughput@concurrency=8: … 2 ×
                ----------------------------------- kernels (same-run baselines) -----------------------------------
                  FAIL       allreduce_busbw_gbps@bytes=4MiB ≥ 0.5 × memcpy_per_thread_gbps@bytes=8MiB: 3 GB/s = 0.3 × 10 GB/s, expected ≥ 0.5 × 10 = 5 GB/s
                  pass       moe_gflops@backend=native,tokens=64 ≥ 1 × moe_gflops@backend=ggml-f16: 130 GFLOP/s = 3 × 43 GFLOP/s, expected ≥ 1 × 43 = 43 GFLOP/s
                """).endsWith("=".repeat(100) + "\n");
    }

    @Test
    void aLongDetailIsCutSoEachVerdictStaysOneShortLine() {
        String body = "x".repeat(RunSummary.MAX_DETAIL + 50);
        String text = RunSummary.render("demo", List.of(), List.of(new Line(Outcome.INVALID, "check", body)), List.of());

        assertThat(text).contains("  INVALID    check: " + "x".repeat(RunSummary.MAX_DETAIL - 1) + "…\n");
    }

    @Test
    void headlineLabelsAreSglangsOwn() {
        for (MetricId metric : RunSummary.HEADLINE) {
            assertThat(RunSummary.label(metric)).isEqualTo(metric == MetricId.FAILED ? "Failed requests:"
                    : metric.sglangLabel().orElseThrow());
        }
    }

    @Test
    void linesAreOneLineAndTheHeadlineTakesOnlyHeadlineMetrics() {
        assertThatIllegalArgumentException().isThrownBy(() -> new Line(Outcome.FAIL, "x", "a\nb"));
        assertThatIllegalArgumentException().isThrownBy(() -> new Point("p", 1,
                Map.of(MetricId.P90_TTFT_MS, 1.0), List.of())).withMessageContaining("p90_ttft_ms");
    }
}
