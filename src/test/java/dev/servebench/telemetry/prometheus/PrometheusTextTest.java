package dev.servebench.telemetry.prometheus;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.telemetry.ScrapeFixtures;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.OpenMetricsTextFormatWriter;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {

    @Test
    void readsAnSglangScrape() {
        List<Sample> samples = PrometheusText.parse(ScrapeFixtures.SGLANG);

        assertThat(samples).filteredOn(s -> s.name().equals("sglang:generation_tokens_total"))
                .singleElement()
                .satisfies(s -> {
                    assertThat(s.labels()).isEqualTo(Map.of("model_name", "meta-llama/Llama-3.1-8B-Instruct"));
                    assertThat(s.value()).isEqualTo(7.557572e+06);
                    assertThat(s.timestampMillis()).isEmpty();
                });
        assertThat(samples).filteredOn(s -> s.name().equals("sglang:time_to_first_token_seconds_bucket"))
                .extracting(s -> s.label("le"))
                .containsExactly("0.001", "0.005", "+Inf");
        assertThat(samples).hasSize(10); // HELP and TYPE lines are no samples
    }

    @Test
    void readsAVllmV1Scrape() {
        List<Sample> samples = PrometheusText.parse(ScrapeFixtures.vllmV1(100, 40, 2, 1, 0));

        assertThat(samples).filteredOn(s -> s.name().equals("vllm:request_success_total"))
                .extracting(s -> s.label("finished_reason") + "@" + s.label("engine") + "=" + s.value())
                .containsExactly("stop@0=2.0", "length@0=1.0", "abort@0=0.0");
        assertThat(samples).filteredOn(s -> s.name().equals("vllm:generation_tokens_total"))
                .extracting(Sample::labels)
                .containsExactly(Map.of("model_name", "Qwen/Qwen3-8B", "engine", "0"));
    }

    @Test
    void decodesTheThreeLabelEscapes() {
        Sample s = PrometheusText.parse("m{a=\"say \\\"hi\\\"\",b=\"C:\\\\dir\",c=\"two\\nlines\"} 1\n").getFirst();

        assertThat(s.labels()).containsExactly(Map.entry("a", "say \"hi\""), Map.entry("b", "C:\\dir"),
                Map.entry("c", "two\nlines"));
    }

    @Test
    void readsSpecialValuesInGoSpellings() {
        List<Sample> samples = PrometheusText.parse("a +Inf\nb -Inf\nc NaN\nd inf\ne -1.5e-3\nf .5\ng 3.\n");

        assertThat(samples).extracting(Sample::value).containsExactly(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
                Double.NaN, Double.POSITIVE_INFINITY, -0.0015, 0.5, 3.0);
    }

    @Test
    void classicTimestampsAreIntegerMilliseconds() {
        Sample s = PrometheusText.parse("# TYPE x counter\nx_total{a=\"1\"} 5 1700000000123\n").getFirst();

        assertThat(s.timestampMillis()).isEqualTo(OptionalLong.of(1_700_000_000_123L));
    }

    @Test
    void openMetricsTimestampsAreSecondsAndExemplarsAreSkipped() {
        String text = """
                # TYPE requests counter
                # UNIT requests requests
                requests_total{path="/a"} 12 1700000000.25 # {trace_id="abc"} 1.0 1700000000.2
                requests_created{path="/a"} 1.7e9
                # EOF
                """;

        List<Sample> samples = PrometheusText.parse(text);

        assertThat(samples).hasSize(2);
        assertThat(samples.getFirst().timestampMillis()).isEqualTo(OptionalLong.of(1_700_000_000_250L));
        assertThat(samples.getFirst().value()).isEqualTo(12.0);
    }

    @Test
    void toleratesBlankLinesCrlfIndentationTrailingCommasAndQuotedNames() {
        String text = "\r\n# a free comment\r\n   up 1\r\n\n"
                + "m{a=\"1\",} 2\n"
                + "n{a=\"1\"}3\n"
                + "{\"my.metric\", \"odd.label\"=\"v\"} 4\n"
                + "p { a = \"x\" } 5\n";

        List<Sample> samples = PrometheusText.parse(text);

        assertThat(samples).extracting(Sample::name).containsExactly("up", "m", "n", "my.metric", "p");
        assertThat(samples).extracting(Sample::value).containsExactly(1.0, 2.0, 3.0, 4.0, 5.0);
        assertThat(samples.get(3).labels()).isEqualTo(Map.of("odd.label", "v"));
        assertThat(samples.get(4).labels()).isEqualTo(Map.of("a", "x"));
    }

    @Test
    void emptyScrapeHasNoSample() {
        assertThat(PrometheusText.parse("")).isEmpty();
        assertThat(PrometheusText.parse("# HELP x nothing yet\n# TYPE x counter\n")).isEmpty();
    }

    /** Whatever the Prometheus Java client writes, in both of its formats, must read back exactly. */
    @Test
    void readsWhatThePrometheusJavaClientWrites() throws IOException {
        PrometheusRegistry registry = new PrometheusRegistry();
        Counter tokens = Counter.builder().name("servebench_generation_tokens_total").help("Tokens \"generated\".")
                .labelNames("model", "note").register(registry);
        tokens.labelValues("tiny-moe", "quote \" backslash \\ newline \n end").inc(8192);
        tokens.labelValues("other", "").inc(1);
        Histogram latency = Histogram.builder().name("latency_seconds").help("Latency.")
                .classicUpperBounds(0.1, 1.0).register(registry);
        latency.observe(0.5);

        for (boolean openMetrics : new boolean[] {false, true}) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            if (openMetrics) {
                OpenMetricsTextFormatWriter.create().write(out, registry.scrape());
            } else {
                PrometheusTextFormatWriter.create().write(out, registry.scrape());
            }
            List<Sample> samples = PrometheusText.parse(out.toString(StandardCharsets.UTF_8));

            assertThat(samples).as("openMetrics=%s", openMetrics)
                    .filteredOn(s -> s.name().equals("servebench_generation_tokens_total"))
                    .extracting(s -> s.label("note") + "=" + s.value())
                    .containsExactlyInAnyOrder("quote \" backslash \\ newline \n end=8192.0", "=1.0");
            assertThat(samples).as("openMetrics=%s", openMetrics)
                    .filteredOn(s -> s.name().equals("latency_seconds_bucket"))
                    .extracting(Sample::value)
                    .containsExactly(0.0, 1.0, 1.0);
            assertThat(samples).as("openMetrics=%s", openMetrics)
                    .filteredOn(s -> s.name().equals("latency_seconds_bucket")).last()
                    .satisfies(s -> assertThat(s.label("le")).isEqualTo("+Inf"));
        }
    }
}
