package dev.servebench.telemetry.counters;

import static dev.servebench.telemetry.counters.CounterKind.FINISHED_REQUESTS;
import static dev.servebench.telemetry.counters.CounterKind.GENERATED_TOKENS;
import static dev.servebench.telemetry.counters.CounterKind.PROMPT_TOKENS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.telemetry.ScrapeFixtures;
import dev.servebench.telemetry.prometheus.PrometheusText;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ServerCountersTest {

    static final Instant T0 = Instant.parse("2026-12-02T15:00:00Z");

    static MetricsSnapshot snapshot(String text) {
        return snapshot(text, T0);
    }

    static MetricsSnapshot snapshot(String text, Instant at) {
        return new MetricsSnapshot(at, PrometheusText.parse(text));
    }

    @Test
    void detectsEachFlavorByItsPrefix() {
        assertThat(ServerFlavor.detect(snapshot(ScrapeFixtures.SGLANG))).isEqualTo(ServerFlavor.SGLANG);
        assertThat(ServerFlavor.detect(snapshot(ScrapeFixtures.SGLANG_BEFORE_FIRST_REQUEST))).isEqualTo(ServerFlavor.SGLANG);
        assertThat(ServerFlavor.detect(snapshot(ScrapeFixtures.vllmV1(1, 1, 1, 0, 0)))).isEqualTo(ServerFlavor.VLLM);
        assertThat(ServerFlavor.detect(snapshot(ScrapeFixtures.embedded(1, 1, 1, 0))))
                .isEqualTo(ServerFlavor.SERVEBENCH_EMBEDDED);
        assertThat(ServerFlavor.detect(snapshot("process_cpu_seconds_total 3.5\n"))).isEqualTo(ServerFlavor.UNKNOWN);
        assertThat(ServerFlavor.detect(snapshot(""))).isEqualTo(ServerFlavor.UNKNOWN);
    }

    @Test
    void aGatewayWithTwoEnginesIsResolvedByTheTokenCounterOrLeftUnknown() {
        String vllmGaugeOnly = "vllm:num_requests_running{engine=\"0\"} 0\n";
        assertThat(ServerFlavor.detect(snapshot(ScrapeFixtures.SGLANG + vllmGaugeOnly))).isEqualTo(ServerFlavor.SGLANG);
        assertThat(ServerFlavor.detect(snapshot(ScrapeFixtures.SGLANG + ScrapeFixtures.vllmV1(1, 1, 1, 0, 0))))
                .isEqualTo(ServerFlavor.UNKNOWN);
    }

    @Test
    void readsSglangCounters() {
        ServerCounters counters = ServerCounters.read(snapshot(ScrapeFixtures.sglang(8192, 16384, 64)));

        assertThat(counters.flavor()).isEqualTo(ServerFlavor.SGLANG);
        assertThat(counters.at()).isEqualTo(T0);
        assertThat(counters.reading(GENERATED_TOKENS)).hasValueSatisfying(r -> {
            assertThat(r.metricName()).isEqualTo("sglang:generation_tokens_total");
            assertThat(r.total()).isEqualTo(8192.0);
            assertThat(r.series()).singleElement()
                    .satisfies(s -> assertThat(s.labels()).containsEntry("model_name", ScrapeFixtures.SGLANG_MODEL));
        });
        assertThat(counters.reading(PROMPT_TOKENS).orElseThrow().total()).isEqualTo(16384.0);
        assertThat(counters.reading(FINISHED_REQUESTS).orElseThrow().metricName()).isEqualTo("sglang:num_requests_total");
        assertThat(counters.reading(FINISHED_REQUESTS).orElseThrow().total()).isEqualTo(64.0);
    }

    @Test
    void sumsVllmSeriesOverEnginesAndFinishReasons() {
        ServerCounters twoEngines = ServerCounters.read(snapshot(ScrapeFixtures.vllmV1TwoEngines(1000, 234)));
        assertThat(twoEngines.reading(GENERATED_TOKENS).orElseThrow().total()).isEqualTo(1234.0);
        assertThat(twoEngines.reading(PROMPT_TOKENS).orElseThrow().total()).isEqualTo(30.0);
        assertThat(twoEngines.reading(FINISHED_REQUESTS)).isEmpty();

        ServerCounters reasons = ServerCounters.read(snapshot(ScrapeFixtures.vllmV1(5000, 2000, 7, 3, 2)));
        assertThat(reasons.reading(FINISHED_REQUESTS).orElseThrow().total()).isEqualTo(12.0);
        assertThat(reasons.reading(FINISHED_REQUESTS).orElseThrow().series()).hasSize(3);
    }

    @Test
    void sglangBeforeItsFirstRequestHasNoCounterYet() {
        ServerCounters counters = ServerCounters.read(snapshot(ScrapeFixtures.SGLANG_BEFORE_FIRST_REQUEST));

        assertThat(counters.flavor()).isEqualTo(ServerFlavor.SGLANG);
        assertThat(counters.readings()).isEmpty();
    }

    @Test
    void aNegativeOrNanCounterIsRejected() {
        assertThatThrownBy(() -> ServerCounters.read(snapshot("servebench_generation_tokens_total -1\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("servebench_generation_tokens_total: counter value -1.0");
        assertThatThrownBy(() -> ServerCounters.read(snapshot("servebench_generation_tokens_total NaN\n")))
                .hasMessageContaining("is not a counter's value");
    }

    @Test
    void aLabelSetGivenTwiceIsRejected() {
        assertThatThrownBy(() -> ServerCounters.read(snapshot(
                "vllm:generation_tokens_total{engine=\"0\"} 1\nvllm:generation_tokens_total{engine=\"0\"} 2\n")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("vllm:generation_tokens_total{engine=0} appears twice in one scrape");
    }

    @Test
    void sameValuesComparesEveryLabelSet() {
        ServerCounters a = ServerCounters.read(snapshot(ScrapeFixtures.vllmV1(10, 5, 1, 0, 0)));
        ServerCounters sameLater = ServerCounters.read(snapshot(ScrapeFixtures.vllmV1(10, 5, 1, 0, 0), T0.plusSeconds(1)));
        ServerCounters moved = ServerCounters.read(snapshot(ScrapeFixtures.vllmV1(10, 5, 0, 1, 0)));

        assertThat(a.sameValuesAs(sameLater)).isTrue();
        assertThat(a.sameValuesAs(moved)).isFalse();
    }
}
