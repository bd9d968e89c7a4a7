package dev.servebench.spec;

import static dev.servebench.spec.SpecErrorsTest.failure;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Bad expectation expressions fail at the offending token: line of the list item, column of the
 * expression's start plus the token's offset.
 */
class ExpressionErrorsTest {

    /** Lines 1-8; the expression under test is line 9, starting at column 5 (or 6 when quoted). */
    private static final String HEAD = """
            name: bad
            workload:
              dataset: random
              input_len: 256
              output_len: 128
            sweep:
              concurrency: [1, 64, 256]
            expect:
            """;

    private static String failing(String item) {
        return failure(HEAD + "  - " + item + "\n").getMessage();
    }

    @Test
    void unknownMetricNamesCloseMatches() {
        assertThat(failing("output_thruput >= 600 tok/s @ concurrency=256")).isEqualTo("bad.yaml:9:5: expect[0]:"
                + " unknown metric 'output_thruput' (did you mean 'output_throughput'?); metric ids are listed in"
                + " docs/metrics.md");
        assertThat(failing("ttft_p99_ms <= 2000 ms @ concurrency=64")).startsWith("bad.yaml:9:5: expect[0]: unknown"
                + " metric 'ttft_p99_ms' (did you mean 'p99_ttft_ms'");
        assertThat(failing("max_output_tokens_per_s >= 1 tok/s @ concurrency=1")).startsWith("bad.yaml:9:5: expect[0]:"
                + " unknown metric 'max_output_tokens_per_s' (did you mean 'peak_output_throughput' or"
                + " 'vllm_peak_output_throughput'");
        assertThat(failing("output_throughput@concurrency=256 >= 2 x outptu_throughput@concurrency=64"))
                .startsWith("bad.yaml:9:46: expect[0]: unknown metric 'outptu_throughput' (did you mean"
                        + " 'output_throughput' or");
        assertThat(failing("tokens >= 1 tokens @ concurrency=1")).isEqualTo("bad.yaml:9:5: expect[0]: unknown metric"
                + " 'tokens'; metric ids are listed in docs/metrics.md");
    }

    @Test
    void comparatorAndNumber() {
        assertThat(failing("output_throughput == 600 tok/s @ concurrency=256")).isEqualTo("bad.yaml:9:23: expect[0]:"
                + " expected a comparator (>=, <=, >, <, ≥, ≤), found '='");
        assertThat(failing("output_throughput >= fast @ concurrency=256")).isEqualTo("bad.yaml:9:26: expect[0]:"
                + " expected a threshold (a number), found 'fast'; the form is METRIC CMP NUMBER UNIT @ POINT, e.g."
                + " output_throughput >= 600 tok/s @ concurrency=256, or METRIC@POINT CMP FACTOR x METRIC@POINT");
    }

    @Test
    void unitsMustBeTheMetricsOwn() {
        assertThat(failing("p99_ttft_ms <= 2 s @ concurrency=64")).isEqualTo("bad.yaml:9:22: expect[0]: unit 's' does"
                + " not match p99_ttft_ms, which is in ms (write ms: 2 s is 2000 ms; values are not converted)");
        assertThat(failing("output_throughput >= 600 req/s @ concurrency=256")).isEqualTo("bad.yaml:9:30: expect[0]:"
                + " unit 'req/s' does not match output_throughput, which is in tok/s (write tok/s or tokens/s; values"
                + " are not converted)");
        assertThat(failing("output_throughput >= 600 tps @ concurrency=256")).isEqualTo("bad.yaml:9:30: expect[0]:"
                + " unknown unit 'tps'; output_throughput is in tok/s (write tok/s or tokens/s)");
        assertThat(failing("output_throughput >= 600 @ concurrency=256")).isEqualTo("bad.yaml:9:30: expect[0]:"
                + " missing unit after 600: output_throughput is in tok/s, write '600 tok/s'");
        assertThat(failing("output_throughput@concurrency=256 >= 2 x p99_ttft_ms@concurrency=64")).isEqualTo(
                "bad.yaml:9:46: expect[0]: units differ: output_throughput is in tok/s, p99_ttft_ms in ms; a relative"
                        + " expectation compares like with like");
    }

    @Test
    void pointsMustBeInTheSweep() {
        assertThat(failing("output_throughput >= 600 tok/s @ concurrency=128")).isEqualTo("bad.yaml:9:38: expect[0]:"
                + " load point concurrency=128 is not in the sweep; its points are concurrency=1, concurrency=64,"
                + " concurrency=256");
        assertThat(failing("output_throughput >= 600 tok/s @ concurrency=64,rate=8")).isEqualTo("bad.yaml:9:38:"
                + " expect[0]: load point concurrency=64,rate=8 is not in the sweep; its points are concurrency=1,"
                + " concurrency=64, concurrency=256");
        assertThat(failing("output_throughput@concurrency=512 >= 2 x output_throughput@concurrency=64"))
                .startsWith("bad.yaml:9:23: expect[0]: load point concurrency=512 is not in the sweep");
        assertThat(failing("output_throughput >= 600 tok/s @ c=256")).isEqualTo("bad.yaml:9:38: expect[0]: expected a"
                + " load point (concurrency=N, rate=R or concurrency=N,rate=R), found 'c'");
        assertThat(failing("output_throughput >= 600 tok/s @ concurrency=-1")).isEqualTo("bad.yaml:9:50: expect[0]:"
                + " expected a concurrency (an integer >= 1), found '-1'");
        assertThat(failing("output_throughput >= 600 tok/s @ rate=fast")).isEqualTo("bad.yaml:9:43: expect[0]:"
                + " expected a request rate (a number > 0 or inf), found 'fast'");
        assertThat(failing("output_throughput >= 600 tok/s @ concurrency=1,concurrency=1")).isEqualTo(
                "bad.yaml:9:52: expect[0]: concurrency is given twice");
        assertThat(failing("output_throughput >= 600 tok/s concurrency=1")).isEqualTo("bad.yaml:9:36: expect[0]:"
                + " expected '@' and the load point, e.g. '@ concurrency=256', found 'concurrency'");
        assertThat(failing("output_throughput >= 600 tok/s @ concurrency=1 please")).isEqualTo("bad.yaml:9:52:"
                + " expect[0]: unexpected 'please' after the load point");
        assertThat(failing("output_throughput >= 600 tok/s @")).isEqualTo("bad.yaml:9:37: expect[0]: expected a load"
                + " point (concurrency=N, rate=R or concurrency=N,rate=R), found the end of the expression");
    }

    @Test
    void relativeForm() {
        assertThat(failing("output_throughput@concurrency=256 >= 2.5 output_throughput@concurrency=64")).isEqualTo(
                "bad.yaml:9:46: expect[0]: expected 'x' or '×' after the factor 2.5, found 'output_throughput'");
        assertThat(failing("output_throughput@concurrency=256 >= 600 tok/s")).isEqualTo("bad.yaml:9:46: expect[0]:"
                + " expected 'x' or '×' after the factor 600, found 'tok/s' (an absolute expectation puts the point"
                + " last: METRIC CMP NUMBER UNIT @ POINT)");
        assertThat(failing("output_throughput@concurrency=256 >= 0 x output_throughput@concurrency=64")).isEqualTo(
                "bad.yaml:9:42: expect[0]: the factor must be > 0, found 0");
        assertThat(failing("output_throughput@concurrency=64 >= 1 x output_throughput@concurrency=64")).isEqualTo(
                "bad.yaml:9:45: expect[0]: compares output_throughput@concurrency=64 with itself");
    }

    @Test
    void quotedExpressionsCountFromInsideTheQuote() {
        assertThat(failing("\"output_throughput ≥ 600 tok/s @ concurrency=128\"")).startsWith("bad.yaml:9:38:"
                + " expect[0]: load point concurrency=128 is not in the sweep");
    }

    @Test
    void expressionsThatDoNotMapOntoTheLineFailAtTheirStart() {
        // A plain scalar folded over two lines: offsets in the text are not columns on one line.
        String yaml = HEAD + "  - output_throughput >= 600 tok/s\n    @ concurrency=128\n";
        assertThat(failure(yaml)).hasMessageStartingWith("bad.yaml:9:5: expect[0]: load point concurrency=128 is not"
                + " in the sweep");
        // An escape makes the text shorter than the source.
        assertThat(failing("'it''s >= 1 tok/s @ concurrency=1'")).isEqualTo("bad.yaml:9:5: expect[0]: unknown metric"
                + " 'it's'; metric ids are listed in docs/metrics.md");
    }

    @Test
    void duplicateExpectations() {
        String yaml = HEAD + "  - output_throughput >= 600 tok/s @ concurrency=256\n"
                + "  - p99_ttft_ms <= 2000 ms @ concurrency=64\n"
                + "  - output_throughput ≥ 600 tokens/s @ concurrency=256\n";
        assertThat(failure(yaml)).hasMessage("bad.yaml:11:5: expect[2]: duplicate expectation 'output_throughput ≥ 600"
                + " tok/s @ concurrency=256' (already at expect[0], line 9)");
    }
}
