package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class MetricIdTest {

    /** Keys SGLang writes to its result file (docs/reference-semantics.md, SGLang result file). */
    private static final Set<String> SGLANG_RESULT_KEYS = Set.of("duration", "completed", "total_input_tokens",
            "total_output_tokens", "total_output_tokens_retokenized", "request_throughput", "input_throughput", "output_throughput", "total_throughput",
            "mean_e2e_latency_ms", "median_e2e_latency_ms", "std_e2e_latency_ms", "p90_e2e_latency_ms",
            "p95_e2e_latency_ms", "p99_e2e_latency_ms", "mean_ttft_ms", "median_ttft_ms", "std_ttft_ms",
            "p90_ttft_ms", "p95_ttft_ms", "p99_ttft_ms", "mean_tpot_ms", "median_tpot_ms", "std_tpot_ms",
            "p90_tpot_ms", "p95_tpot_ms", "p99_tpot_ms", "mean_itl_ms", "median_itl_ms", "std_itl_ms", "p90_itl_ms",
            "p95_itl_ms", "p99_itl_ms", "concurrency", "max_output_tokens_per_s", "max_concurrent_requests");

    @Test
    void idsAreUniqueSnakeCaseAndFindable() {
        Set<String> seen = new HashSet<>();
        for (MetricId id : MetricId.values()) {
            assertThat(id.id()).matches("[a-z][a-z0-9]*(_[a-z0-9]+)*");
            assertThat(seen.add(id.id())).as("duplicate id " + id.id()).isTrue();
            assertThat(id.id()).isEqualTo(id.name().toLowerCase());
            assertThat(MetricId.byId(id.id())).contains(id);
        }
        assertThat(MetricId.byId("tok_s")).isEmpty();
    }

    @Test
    void sglangConsoleLabelsAreExact() {
        Map<MetricId, String> labels = Map.ofEntries(
                Map.entry(MetricId.BENCHMARK_DURATION, "Benchmark duration (s):"),
                Map.entry(MetricId.COMPLETED, "Successful requests:"),
                Map.entry(MetricId.TOTAL_INPUT_TOKENS, "Total input tokens:"),
                Map.entry(MetricId.TOTAL_OUTPUT_TOKENS, "Total generated tokens:"),
                Map.entry(MetricId.TOTAL_OUTPUT_TOKENS_RETOKENIZED, "Total generated tokens (retokenized):"),
                Map.entry(MetricId.REQUEST_THROUGHPUT, "Request throughput (req/s):"),
                Map.entry(MetricId.INPUT_THROUGHPUT, "Input token throughput (tok/s):"),
                Map.entry(MetricId.OUTPUT_THROUGHPUT, "Output token throughput (tok/s):"),
                Map.entry(MetricId.PEAK_OUTPUT_THROUGHPUT, "Peak output token throughput (tok/s):"),
                Map.entry(MetricId.PEAK_CONCURRENT_REQUESTS, "Peak concurrent requests:"),
                Map.entry(MetricId.TOTAL_THROUGHPUT, "Total token throughput (tok/s):"),
                Map.entry(MetricId.CONCURRENCY, "Concurrency:"),
                Map.entry(MetricId.MEAN_E2E_LATENCY_MS, "Mean E2E Latency (ms):"),
                Map.entry(MetricId.P90_E2E_LATENCY_MS, "P90 E2E Latency (ms):"),
                Map.entry(MetricId.MEAN_TTFT_MS, "Mean TTFT (ms):"),
                Map.entry(MetricId.MEDIAN_TTFT_MS, "Median TTFT (ms):"),
                Map.entry(MetricId.P95_TPOT_MS, "P95 TPOT (ms):"),
                Map.entry(MetricId.P99_ITL_MS, "P99 ITL (ms):"),
                Map.entry(MetricId.MAX_ITL_MS, "Max ITL (ms):"));
        labels.forEach((id, label) -> assertThat(id.sglangLabel()).as(id.id()).contains(label));
        // SGLang computes the retokenized throughput but neither prints nor writes it
        assertThat(MetricId.OUTPUT_THROUGHPUT_RETOKENIZED.sglangLabel()).isEmpty();
        assertThat(MetricId.OUTPUT_THROUGHPUT_RETOKENIZED.sglangKey()).isEmpty();
        // SGLang prints no std lines
        assertThat(MetricId.STD_TTFT_MS.sglangLabel()).isEmpty();
        assertThat(MetricId.STD_E2E_LATENCY_MS.sglangLabel()).isEmpty();
    }

    @Test
    void sglangResultKeys() {
        assertThat(MetricId.PEAK_OUTPUT_THROUGHPUT.sglangKey()).contains("max_output_tokens_per_s");
        assertThat(MetricId.PEAK_CONCURRENT_REQUESTS.sglangKey()).contains("max_concurrent_requests");
        assertThat(MetricId.MEAN_E2E_LATENCY_MS.sglangKey()).contains("mean_e2e_latency_ms");
        assertThat(MetricId.BENCHMARK_DURATION.sglangKey()).contains("duration");
        assertThat(MetricId.STD_TPOT_MS.sglangKey()).contains("std_tpot_ms");
        // printed but not written
        assertThat(MetricId.MAX_ITL_MS.sglangKey()).isEmpty();
        Set<String> keys = new HashSet<>();
        Arrays.stream(MetricId.values()).forEach(id -> id.sglangKey().ifPresent(keys::add));
        assertThat(keys).isEqualTo(SGLANG_RESULT_KEYS);
    }

    @Test
    void vllmVariantsCarryVllmNamesOnly() {
        assertThat(MetricId.VLLM_P99_E2EL_MS.vllmKey()).contains("p99_e2el_ms");
        assertThat(MetricId.VLLM_P99_E2EL_MS.vllmLabel()).contains("P99 E2EL (ms):");
        assertThat(MetricId.VLLM_MEAN_TTFT_MS.vllmLabel()).contains("Mean TTFT (ms):");
        assertThat(MetricId.VLLM_PEAK_CONCURRENT_REQUESTS.vllmKey()).contains("max_concurrent_requests");
        assertThat(MetricId.FAILED.vllmLabel()).contains("Failed requests:");
        assertThat(MetricId.REQUEST_GOODPUT.vllmLabel()).contains("Request goodput (req/s):");
        for (MetricId id : MetricId.values()) {
            if (id.origin() == Origin.VLLM) {
                assertThat(id.sglangKey()).as(id.id()).isEmpty();
                assertThat(id.sglangLabel()).as(id.id()).isEmpty();
                assertThat(id.id().startsWith("vllm_") || Set.of("failed", "request_goodput").contains(id.id()))
                        .as(id.id()).isTrue();
            } else {
                assertThat(id.vllmKey()).as(id.id()).isEmpty();
                assertThat(id.vllmLabel()).as(id.id()).isEmpty();
            }
        }
    }

    @Test
    void everyTokenThroughputNamesWhichTokens() {
        for (MetricId id : MetricId.values()) {
            if (id.unit() == Unit.TOKENS_PER_SECOND && id.origin() == Origin.SERVEBENCH) {
                // servebench's own: the server's input count, named so; no tool prints them, so no tool label.
                assertThat(id.id()).as(id.id()).matches("server_(input|total)_throughput");
                assertThat(id.tokenBasis().inputCount()).as(id.id()).isEqualTo(TokenBasis.InputCount.USAGE);
                assertThat(id.sglangLabel().or(id::vllmLabel)).as(id.id()).isEmpty();
            } else if (id == MetricId.OUTPUT_THROUGHPUT_RETOKENIZED) {
                // SGLang's, re-counted by the client tokenizer: named so, and printed by no tool.
                assertThat(id.tokenBasis()).isEqualTo(TokenBasis.RETOKENIZED_OUTPUT);
                assertThat(id.sglangLabel().or(id::vllmLabel)).isEmpty();
            } else if (id.unit() == Unit.TOKENS_PER_SECOND) {
                assertThat(id.id()).as(id.id()).matches("(vllm_)?(peak_)?(output|input|total)_throughput");
                Optional<String> label = id.sglangLabel().or(id::vllmLabel);
                assertThat(label).as(id.id()).hasValueSatisfying(
                        l -> assertThat(l).matches("(Peak output|Output|Input|Total) token throughput \\(tok/s\\):"));
            }
        }
    }

    @Test
    void latencyStatisticsAreMillisecondsLowerIsBetter() {
        for (MetricId id : MetricId.values()) {
            assertThat(id.statistic().isPresent()).as(id.id()).isEqualTo(id.series().isPresent());
            if (id.series().isPresent()) {
                assertThat(id.unit()).as(id.id()).isEqualTo(Unit.MILLISECONDS);
                assertThat(id.direction()).as(id.id()).isEqualTo(Direction.LOWER_IS_BETTER);
                assertThat(id.id()).as(id.id()).endsWith("_" + id.series().get().stem() + "_ms")
                        .contains(id.statistic().get().idPrefix() + "_");
                assertThat(id.origin()).isEqualTo(id.series().get().origin());
            }
        }
        assertThat(MetricId.P99_TTFT_MS.statistic()).contains(Statistic.P99);
        assertThat(MetricId.P99_TTFT_MS.series()).contains(LatencySeries.SGLANG_TTFT);
        assertThat(MetricId.MAX_QUEUE_TIME_MS.origin()).isEqualTo(Origin.SERVEBENCH);
    }

    @Test
    void metadataIsCompleteAndTableSafe() {
        for (MetricId id : MetricId.values()) {
            assertThat(id.formula()).as(id.id()).isNotBlank().doesNotContain("|");
            id.sglangLabel().or(id::vllmLabel).ifPresent(l -> assertThat(l).as(id.id()).endsWith(":"));
        }
        assertThat(Unit.TOKENS_PER_SECOND.symbol()).isEqualTo("tok/s");
        assertThat(Unit.REQUESTS_PER_SECOND.symbol()).isEqualTo("req/s");
        assertThat(Unit.MILLISECONDS.symbol()).isEqualTo("ms");
        assertThat(MetricId.OUTPUT_THROUGHPUT.direction()).isEqualTo(Direction.HIGHER_IS_BETTER);
        assertThat(MetricId.TOTAL_INPUT_TOKENS.direction()).isEqualTo(Direction.INFORMATIONAL);
        assertThat(MetricId.OUTPUT_THROUGHPUT.tokenBasis()).isEqualTo(TokenBasis.OUTPUT_LENGTH);
        assertThat(MetricId.PEAK_OUTPUT_THROUGHPUT.tokenBasis()).isEqualTo(TokenBasis.TOKEN_EVENTS);
    }

    @Test
    void viewsSelectTheirMetricsByDeclarationInRankOrder() {
        assertThat(MetricId.inView(View.RUN_HEADLINE)).containsExactly(MetricId.OUTPUT_THROUGHPUT,
                MetricId.PEAK_OUTPUT_THROUGHPUT, MetricId.INPUT_THROUGHPUT, MetricId.TOTAL_THROUGHPUT,
                MetricId.MEDIAN_TTFT_MS, MetricId.P99_TTFT_MS, MetricId.MEDIAN_ITL_MS, MetricId.P99_ITL_MS,
                MetricId.COMPLETED, MetricId.FAILED);
        assertThat(MetricId.inView(View.THROUGHPUT_TABLE)).containsExactly(MetricId.OUTPUT_THROUGHPUT,
                MetricId.INPUT_THROUGHPUT, MetricId.TOTAL_THROUGHPUT, MetricId.PEAK_OUTPUT_THROUGHPUT);
        assertThat(MetricId.inView(View.TREND_HEADLINE)).containsExactly(MetricId.OUTPUT_THROUGHPUT,
                MetricId.P99_TTFT_MS, MetricId.P99_ITL_MS);
        assertThat(MetricId.inView(View.HTML_LATENCY_TABLE)).allSatisfy(id -> assertThat(id.series()).isPresent())
                .hasSize(12);
    }

    @Test
    void declarationsThatAViewCannotShowAreRefused() {
        MetricDefinition count = MetricDefinition.servebench("x_count", Unit.REQUESTS, Direction.INFORMATIONAL,
                TokenBasis.NONE, "x", a -> 0);
        assertThatIllegalArgumentException().isThrownBy(count::gated).withMessageContaining("x_count")
                .withMessageContaining("informational");
        assertThatIllegalArgumentException().isThrownBy(() -> count.shown(View.HTML_LATENCY_TABLE))
                .withMessageContaining("latency series");
        assertThatIllegalArgumentException().isThrownBy(() -> count.shown(View.THROUGHPUT_TABLE))
                .withMessageContaining("tok/s");
        assertThatIllegalArgumentException().isThrownBy(() -> count.shown(View.RUN_HEADLINE))
                .withMessageContaining("label");
        assertThatIllegalArgumentException().isThrownBy(() -> count.console("no colon"))
                .withMessageContaining("':'");
        assertThatIllegalArgumentException().isThrownBy(() -> count.shown(View.TREND_HEADLINE)
                .shown(View.TREND_HEADLINE)).withMessageContaining("twice");
        MetricDefinition printed = MetricDefinition.stat(Statistic.MEAN, LatencySeries.SGLANG_TTFT,
                Reported.PRINTED_AND_WRITTEN);
        assertThatIllegalArgumentException().isThrownBy(() -> printed.console("Mine:"))
                .withMessageContaining("SGLang does not print");
        assertThatIllegalArgumentException().isThrownBy(() -> MetricDefinition.stat(Statistic.MEAN,
                LatencySeries.QUEUE_TIME, Reported.WRITTEN)).withMessageContaining("servebench's own");
    }

    @Test
    void whatTheToolReportsDecidesItsKeyAndLabel() {
        MetricDefinition both = MetricDefinition.stat(Statistic.P99, LatencySeries.SGLANG_TTFT,
                Reported.PRINTED_AND_WRITTEN);
        assertThat(both.sglangKey()).isEqualTo("p99_ttft_ms");
        assertThat(both.sglangLabel()).isEqualTo("P99 TTFT (ms):");
        MetricDefinition neither = MetricDefinition.stat(Statistic.percentile(99.9), LatencySeries.SGLANG_TTFT,
                Reported.NOT_REPORTED);
        assertThat(neither.id()).isEqualTo("p999_ttft_ms");
        assertThat(neither.sglangKey()).isNull();
        assertThat(neither.sglangLabel()).isNull();
        assertThat(neither.formula()).startsWith("p99.9 (linear) of ttft_i (s) * 1000");
        MetricDefinition vllmWritten = MetricDefinition.stat(Statistic.STD, LatencySeries.VLLM_ITL, Reported.WRITTEN);
        assertThat(vllmWritten.vllmKey()).isEqualTo("std_itl_ms");
        assertThat(vllmWritten.vllmLabel()).isNull();
        assertThat(MetricId.MAX_ITL_MS.sglangLabel()).contains("Max ITL (ms):");
        assertThat(MetricId.MAX_ITL_MS.sglangKey()).isEmpty();
    }

    @Test
    void percentilesOfAnyRankNameThemselves() {
        assertThat(Statistic.percentile(99.9).idPrefix()).isEqualTo("p999");
        assertThat(Statistic.percentile(99).idPrefix()).isEqualTo("p99");
        assertThat(Statistic.percentile(99.0)).isEqualTo(Statistic.P99);
        assertThatIllegalArgumentException().isThrownBy(() -> Statistic.percentile(100)).withMessageContaining("100");
        assertThatIllegalArgumentException().isThrownBy(() -> new Statistic(Statistic.Kind.MEAN, 5))
                .withMessageContaining("no rank");
        assertThat(MetricId.percentileRanks()).contains(90, 95, 99);
    }

    @Test
    void countsAreWholeNumbersExceptTheMeanInFlight() {
        assertThat(MetricId.COMPLETED.wholeNumber()).isTrue();
        assertThat(MetricId.TOTAL_INPUT_TOKENS.wholeNumber()).isTrue();
        assertThat(MetricId.CONCURRENCY.wholeNumber()).isFalse();
        assertThat(MetricId.OUTPUT_THROUGHPUT.wholeNumber()).isFalse();
    }
}
