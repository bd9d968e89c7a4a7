package dev.servebench.spec;

import static dev.servebench.spec.SpecErrorsTest.failure;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Common names for metrics suggest the id they mean; ids are what an expectation must write. */
class MetricSuggestionsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', textBlock = """
            tokens_per_second       | output_throughput, total_throughput
            Tokens per second       | output_throughput, total_throughput
            tok/s                   | output_throughput, total_throughput
            tps                     | output_throughput, total_throughput
            throughput              | output_throughput, total_throughput
            output_tokens_per_sec   | output_throughput
            output_tps              | output_throughput
            gen_throughput          | output_throughput
            generation_tokens/s     | output_throughput
            decode_tps              | output_throughput
            input_tokens_per_sec    | input_throughput
            prefill_throughput      | input_throughput
            total_tps               | total_throughput
            peak_throughput         | peak_output_throughput
            max_output_tokens_per_s | peak_output_throughput
            rps                     | request_throughput
            requests_per_second     | request_throughput
            ttft                    | mean_ttft_ms, median_ttft_ms, p99_ttft_ms
            time_to_first_token     | mean_ttft_ms, median_ttft_ms, p99_ttft_ms
            first token latency     | mean_ttft_ms, median_ttft_ms, p99_ttft_ms
            p99_ttft                | p99_ttft_ms
            ttft_p99_ms             | p99_ttft_ms
            avg_ttft_ms             | mean_ttft_ms
            p50_ttft                | median_ttft_ms
            latency                 | mean_e2e_latency_ms, median_e2e_latency_ms, p99_e2e_latency_ms
            e2e                     | mean_e2e_latency_ms, median_e2e_latency_ms, p99_e2e_latency_ms
            e2el_p99                | p99_e2e_latency_ms
            p95_latency             | p95_e2e_latency_ms
            end-to-end latency      | mean_e2e_latency_ms, median_e2e_latency_ms, p99_e2e_latency_ms
            inter_token_latency     | mean_itl_ms, median_itl_ms, p99_itl_ms
            tpot                    | mean_tpot_ms, median_tpot_ms, p99_tpot_ms
            p95_queue_time          | mean_queue_time_ms, median_queue_time_ms, p99_queue_time_ms
            """)
    void aliasFamiliesNameTheirIds(String alias, String ids) {
        assertThat(MetricAliases.ids(alias)).containsExactly(ids.split(", "));
    }

    @ParameterizedTest
    @CsvSource({"tokens", "output", "p99", "ms", "output_thruput", "it's", "speed"})
    void otherWordsAreNoAlias(String word) {
        assertThat(MetricAliases.ids(word)).isEmpty();
    }

    @Test
    void anAliasInASpecSuggestsTheIdThenCloseOnes() {
        assertThat(failure(spec("output_tokens_per_sec >= 600 tok/s @ concurrency=1"))).hasMessage("bad.yaml:5:5:"
                + " expect[0]: unknown metric 'output_tokens_per_sec' (did you mean 'output_throughput'?); metric ids"
                + " are listed in docs/metrics.md");
        assertThat(failure(spec("p99_latency_ms <= 900 ms @ concurrency=1"))).hasMessageStartingWith("bad.yaml:5:5:"
                + " expect[0]: unknown metric 'p99_latency_ms' (did you mean 'p99_e2e_latency_ms'");
        assertThat(failure(spec("ttft_ms <= 900 ms @ concurrency=1"))).hasMessageStartingWith("bad.yaml:5:5:"
                + " expect[0]: unknown metric 'ttft_ms' (did you mean 'mean_ttft_ms' or 'median_ttft_ms' or"
                + " 'p99_ttft_ms'");
    }

    private static String spec(String expectation) {
        return "name: bad\nworkload: {dataset: random, input_len: 1, output_len: 1}\nsweep: {concurrency: 1}\nexpect:\n  - "
                + expectation + "\n";
    }
}
