package dev.servebench.spec;

import static dev.servebench.spec.SpecErrorsTest.failure;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** A spec with several independent mistakes reports all of them in one exception, in file order. */
class MultipleErrorsTest {

    @Test
    void theIssuesTwoMistakesAreBothReported() throws IOException {
        String yaml = Files.readString(Path.of("src/test/resources/dev/servebench/spec/bad.yaml"));

        SpecException e = failure(yaml);

        assertThat(e).hasMessage("""
                bad.yaml: 2 errors
                bad.yaml:12:5: expect[0]: unknown metric 'output_tokens_per_sec' (did you mean 'output_throughput'?);\
                 metric ids are listed in docs/metrics.md
                bad.yaml:13:22: expect[1]: unit 's' does not match p99_ttft_ms, which is in ms (write ms: 2 s is 2000 ms; values are\
                 not converted)""");
        assertThat(e.errors()).hasSize(2);
        assertThat(e.position()).isEqualTo(new SourcePosition(Path.of("bad.yaml"), 12, 5));
        assertThat(e.problem()).startsWith("expect[0]: unknown metric 'output_tokens_per_sec'");
    }

    @Test
    void everySectionIsCheckedAndTheErrorsComeInFileOrder() {
        SpecException e = failure("""
                name: bad spec
                target:
                  kind: url
                  urll: http://127.0.0.1:30000
                workload:
                  dataset: random
                  input_len: "256"
                  output_len: 0
                  seed: 1.5
                sweep:
                  concurrency: [1, 64, 256]
                  burstines: 2
                warmup: -1
                validity:
                  min_completed: 1.5
                  max_dispatch_lag_p99_ms: -3
                expect:
                  - output_tps >= 600 tok/s @ concurrency=64
                  - p99_ttft_ms <= 2000 ms @ concurrency=64
                  - output_throughput >= 600 tok/s @ concurrency=128
                  - ttft <= 2 s @ concurrency=64
                """);

        assertThat(e.getMessage().lines().toList()).containsExactly(
                "bad.yaml: 13 errors",
                "bad.yaml:1:7: name: expected a name of letters, digits, '.', '_' and '-' (it names files and tests),"
                        + " found string 'bad spec'",
                "bad.yaml:3:3: target (kind url): missing required key 'url'",
                "bad.yaml:4:3: unknown key 'urll' in target (kind url); allowed keys: kind, url, backend, model (did"
                        + " you mean 'url'?)",
                "bad.yaml:7:14: workload.input_len: expected an integer >= 1, found string '256'",
                "bad.yaml:8:15: workload.output_len: expected an integer >= 1, found integer 0",
                "bad.yaml:9:9: workload.seed: expected an integer (64-bit), found number 1.5",
                "bad.yaml:12:3: unknown key 'burstines' in sweep; allowed keys: concurrency, request_rate, burstiness,"
                        + " max_duration (did you mean 'burstiness'?)",
                "bad.yaml:13:9: warmup: expected an integer >= 0, found integer -1",
                "bad.yaml:15:18: validity.min_completed: expected a number in [0, 1], found number 1.5",
                "bad.yaml:16:28: validity.max_dispatch_lag_p99_ms: expected a number >= 0, found integer -3",
                "bad.yaml:18:5: expect[0]: unknown metric 'output_tps' (did you mean 'output_throughput'?); metric"
                        + " ids are listed in docs/metrics.md",
                "bad.yaml:20:38: expect[2]: load point concurrency=128 is not in the sweep; its points are"
                        + " concurrency=1, concurrency=64, concurrency=256",
                "bad.yaml:21:5: expect[3]: unknown metric 'ttft' (did you mean 'mean_ttft_ms' or 'median_ttft_ms' or"
                        + " 'p99_ttft_ms'?); metric ids are listed in docs/metrics.md");
    }

    @Test
    void aBrokenSweepStillLetsExpectationsBeCheckedForEverythingButTheirPoints() {
        SpecException e = failure("""
                name: bad
                workload: {dataset: random, input_len: 1, output_len: 1}
                sweep:
                  concurrency: [1, 64, 64]
                expect:
                  - output_throughput >= 600 tok/s @ concurrency=128
                  - p99_ttft_ms <= 2 s @ concurrency=64
                """);

        assertThat(e.getMessage().lines().toList()).containsExactly(
                "bad.yaml: 2 errors",
                "bad.yaml:4:24: sweep.concurrency[2]: duplicate concurrency 64 (already at sweep.concurrency[1])",
                "bad.yaml:7:22: expect[1]: unit 's' does not match p99_ttft_ms, which is in ms (write ms: 2 s is 2000 ms; values are"
                        + " not converted)");
    }

    @Test
    void duplicatesAreFoundAmongTheValidItemsAndEveryOtherItemIsStillChecked() {
        SpecException e = failure("""
                name: bad
                workload: {dataset: random, input_len: 1, output_len: 1}
                sweep: {concurrency: [1, 0, 1, -2]}
                expect:
                  - output_throughput >= 1 tok/s @ concurrency=1
                  - output_throughput >= 1 tok/s @ concurrency=1
                  - 5
                """);

        assertThat(e.getMessage().lines().toList()).containsExactly(
                "bad.yaml: 5 errors",
                "bad.yaml:3:26: sweep.concurrency[1]: expected an integer >= 1, found integer 0",
                "bad.yaml:3:29: sweep.concurrency[2]: duplicate concurrency 1 (already at sweep.concurrency[0])",
                "bad.yaml:3:32: sweep.concurrency[3]: expected an integer >= 1, found integer -2",
                "bad.yaml:6:5: expect[1]: duplicate expectation 'output_throughput ≥ 1 tok/s @ concurrency=1'"
                        + " (already at expect[0], line 5)",
                "bad.yaml:7:5: expect[2]: expected an expectation such as 'output_throughput >= 600 tok/s @"
                        + " concurrency=256', found integer 5");
    }

    @Test
    void oneErrorIsOneLineAsBefore() {
        SpecException e = failure("""
                name: bad
                workload: {dataset: random, input_len: 1, output_len: 1}
                sweep: {concurrency: 1}
                warmup: -1
                """);

        assertThat(e).hasMessage("bad.yaml:4:9: warmup: expected an integer >= 0, found integer -1");
        assertThat(e.errors()).containsExactly(new SpecError(new SourcePosition(Path.of("bad.yaml"), 4, 9),
                "warmup: expected an integer >= 0, found integer -1"));
    }
}
