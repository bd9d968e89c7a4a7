package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.metric.GoodputSlo;
import dev.servebench.metric.InputTokenSource;
import dev.servebench.metric.TokenSource;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/**
 * Issue 17: the keys that hold what {@code servebench run}'s flags measure with (metrics, client, the sweep's
 * time limit, the extra request body, fixed token ids), their defaults, and their errors.
 */
class RunKeysTest {

    private static final String HEAD = """
            name: keys
            workload:
              dataset: random
              input_len: 16
              output_len: 8
            sweep:
              concurrency: [1, 4]
            """;

    @Test
    void withoutTheKeysASpecMeasuresAsAPlainRunDoes() {
        PerformanceSpec spec = SpecReader.parse(HEAD, "keys.yaml");

        assertThat(spec.metrics()).isEqualTo(MetricsSpec.DEFAULTS);
        assertThat(spec.client()).isEqualTo(ClientSpec.DEFAULTS);
        assertThat(spec.client().stallTimeout()).isEqualTo(Duration.ofSeconds(600));
        assertThat(spec.sweep().maxDuration()).isEmpty();
        assertThat(spec.workload().extraBody()).isEmpty();
        assertThat(((RandomDatasetSpec) spec.workload().dataset()).tokenIds()).isEmpty();
    }

    @Test
    void everyKeyIsRead() throws Exception {
        PerformanceSpec spec = SpecReader.parse("""
                name: keys
                workload:
                  dataset: random
                  input_len: 16
                  output_len: 8
                  vocab_span: 2000
                  extra_request_body: {temperature: 0, stop: ["a"], top_p: 0.5, user: null}
                sweep:
                  concurrency: [1, 4]
                  max_duration: 1.5s
                metrics:
                  token_source: chunks
                  input_token_source: usage
                  goodput: {ttft_ms: 300, e2el_ms: 2000}
                client:
                  threads: 3
                  stall_timeout: 30s
                  request_timeout: 500ms
                """, "keys.yaml");

        assertThat(spec.workload().extraBody()).isEqualTo(new ObjectMapper().readTree(
                "{\"temperature\": 0, \"stop\": [\"a\"], \"top_p\": 0.5, \"user\": null}"));
        // One key fixes the range; the other keeps its default, as one flag does on the command line.
        assertThat(((RandomDatasetSpec) spec.workload().dataset()).tokenIds())
                .contains(new PromptTokenIds(PromptTokenIds.DEFAULT_BASE, 2000));
        assertThat(spec.sweep().maxDuration()).contains(Duration.ofMillis(1500));
        assertThat(spec.metrics()).isEqualTo(new MetricsSpec(TokenSource.CHUNK_COUNT, InputTokenSource.SERVER_USAGE,
                Optional.of(new GoodputSlo(OptionalDouble.of(300), OptionalDouble.empty(), OptionalDouble.of(2000)))));
        assertThat(spec.client()).isEqualTo(new ClientSpec(OptionalInt.of(3), Duration.ofSeconds(30),
                Optional.of(Duration.ofMillis(500))));
    }

    @Test
    void badValuesSayWhereAndWhatWasExpected() {
        assertThat(SpecErrorsTest.failure(HEAD + "metrics: {token_source: tokens}\n"))
                .hasMessageContaining("bad.yaml:8:25: metrics.token_source: expected usage or chunks");
        assertThat(SpecErrorsTest.failure(HEAD + "metrics: {goodput: {}}\n"))
                .hasMessageContaining("metrics.goodput: expected at least one of ttft_ms, tpot_ms, e2el_ms");
        assertThat(SpecErrorsTest.failure(HEAD + "metrics: {goodput: {ttft: 3}}\n"))
                .hasMessageContaining("unknown key 'ttft' in metrics.goodput");
        assertThat(SpecErrorsTest.failure(HEAD + "client: {stall_timeout: 30}\n"))
                .hasMessageContaining("client.stall_timeout: expected a duration such as 500ms, 90s, 15m or 1h");
        assertThat(SpecErrorsTest.failure(HEAD + "client: {threads: 0}\n"))
                .hasMessageContaining("client.threads: expected an integer in [1, 1024]");
        assertThat(SpecErrorsTest.failure(HEAD.replace("concurrency: [1, 4]", "concurrency: [1, 4]\n  max_duration: 0s")))
                .hasMessageContaining("sweep.max_duration: expected a positive duration");
        assertThat(SpecErrorsTest.failure(HEAD.replace("output_len: 8", "output_len: 8\n  extra_request_body: '{}'")))
                .hasMessageContaining("workload.extra_request_body: expected a mapping");
        assertThat(SpecErrorsTest.failure(HEAD.replace("output_len: 8", "output_len: 8\n  token_id_base: -1")))
                .hasMessageContaining("workload.token_id_base: expected an integer >= 0");
    }

    @Test
    void aShareGptWorkloadHasNoTokenIds() {
        assertThat(SpecErrorsTest.failure("""
                name: bad
                workload:
                  dataset: sharegpt
                  path: s.json
                  vocab_span: 100
                sweep: {concurrency: 1}
                """)).hasMessageContaining("unknown key 'vocab_span' in workload (dataset sharegpt)");
    }

    @Test
    void durationsAreWrittenInTheLargestExactUnit() {
        assertThat(SpecWriter.duration(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(SpecWriter.duration(Duration.ofMinutes(10))).isEqualTo("10m");
        assertThat(SpecWriter.duration(Duration.ofHours(2))).isEqualTo("2h");
        assertThat(SpecWriter.duration(Duration.ofMillis(1500))).isEqualTo("1500ms");
        assertThat(SpecWriter.duration(Duration.ofNanos(1_250_000))).isEqualTo("1.25ms");
    }
}
