package dev.servebench.telemetry.counters;

import static dev.servebench.telemetry.counters.CounterKind.FINISHED_REQUESTS;
import static dev.servebench.telemetry.counters.CounterKind.GENERATED_TOKENS;
import static dev.servebench.telemetry.counters.CounterKind.PROMPT_TOKENS;
import static dev.servebench.telemetry.counters.ServerCountersTest.T0;
import static dev.servebench.telemetry.counters.ServerCountersTest.snapshot;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.telemetry.ScrapeFixtures;
import org.junit.jupiter.api.Test;

class CounterDeltaTest {

    private static ServerCounters at(String text, int second) {
        return ServerCounters.read(snapshot(text, T0.plusSeconds(second)));
    }

    @Test
    void increasesAreAfterMinusBefore() {
        CounterDelta delta = CounterDelta.between(at(ScrapeFixtures.sglang(1000, 5000, 10), 0),
                at(ScrapeFixtures.sglang(9192, 21384, 74), 30));

        assertThat(delta.flavor()).isEqualTo(ServerFlavor.SGLANG);
        assertThat(delta.from()).isEqualTo(T0);
        assertThat(delta.to()).isEqualTo(T0.plusSeconds(30));
        assertThat(delta.change(GENERATED_TOKENS))
                .isEqualTo(new CounterChange.Increased(GENERATED_TOKENS, "sglang:generation_tokens_total", 8192, 0));
        assertThat(delta.change(PROMPT_TOKENS)).isEqualTo(
                new CounterChange.Increased(PROMPT_TOKENS, "sglang:prompt_tokens_total", 16384, 0));
        assertThat(delta.change(FINISHED_REQUESTS)).isEqualTo(
                new CounterChange.Increased(FINISHED_REQUESTS, "sglang:num_requests_total", 64, 0));
    }

    @Test
    void aCounterThatAppearsDuringTheRunCountsFromZero() {
        CounterDelta delta = CounterDelta.between(at(ScrapeFixtures.SGLANG_BEFORE_FIRST_REQUEST, 0),
                at(ScrapeFixtures.sglang(640, 1280, 5), 10));

        assertThat(delta.change(GENERATED_TOKENS))
                .isEqualTo(new CounterChange.Increased(GENERATED_TOKENS, "sglang:generation_tokens_total", 640, 1));
    }

    @Test
    void aNewLabelSetCountsFromZero() {
        String before = "servebench_request_success_total{finished_reason=\"length\"} 4\n";
        String after = before + "servebench_request_success_total{finished_reason=\"abort\"} 1\n";

        CounterChange change = CounterDelta.between(at(before, 0), at(after, 1)).change(FINISHED_REQUESTS);

        assertThat(change).isEqualTo(new CounterChange.Increased(FINISHED_REQUESTS, "servebench_request_success_total",
                1, 1));
    }

    @Test
    void aSeriesGoingBackIsAResetEvenWhenTheTotalGrows() {
        // engine 1 restarted (5000 -> 10) while engine 0 grew by more than engine 1 lost
        CounterDelta delta = CounterDelta.between(at(ScrapeFixtures.vllmV1TwoEngines(1000, 5000), 0),
                at(ScrapeFixtures.vllmV1TwoEngines(9000, 10), 60));

        assertThat(delta.change(GENERATED_TOKENS)).isInstanceOfSatisfying(CounterChange.Reset.class, r -> {
            assertThat(r.before()).isEqualTo(6000.0);
            assertThat(r.after()).isEqualTo(9010.0);
            assertThat(r.detail()).isEqualTo("vllm:generation_tokens_total{model_name=m, engine=1} went from 5000 to 10");
        });
        assertThat(delta.change(PROMPT_TOKENS)).isInstanceOf(CounterChange.Increased.class);
    }

    @Test
    void aVanishedSeriesOrCounterIsAReset() {
        CounterChange lostSeries = CounterDelta.between(at(ScrapeFixtures.vllmV1TwoEngines(1, 2), 0),
                        at("vllm:generation_tokens_total{model_name=\"m\",engine=\"0\"} 5\n", 1))
                .change(GENERATED_TOKENS);
        assertThat(lostSeries).isInstanceOfSatisfying(CounterChange.Reset.class,
                r -> assertThat(r.detail()).endsWith("engine=1} vanished between the scrapes"));

        CounterChange lostCounter = CounterDelta.between(at(ScrapeFixtures.sglang(10, 10, 1), 0),
                at(ScrapeFixtures.SGLANG_BEFORE_FIRST_REQUEST, 1)).change(GENERATED_TOKENS);
        assertThat(lostCounter).isEqualTo(new CounterChange.Reset(GENERATED_TOKENS, "sglang:generation_tokens_total",
                10, 0, "sglang:generation_tokens_total vanished between the scrapes"));
    }

    @Test
    void aCounterAbsentFromBothScrapesIsMissing() {
        CounterDelta delta = CounterDelta.between(at(ScrapeFixtures.vllmV1TwoEngines(1, 2), 0),
                at(ScrapeFixtures.vllmV1TwoEngines(3, 4), 1));
        assertThat(delta.change(FINISHED_REQUESTS)).isEqualTo(new CounterChange.Missing(FINISHED_REQUESTS,
                "vLLM exposes no vllm:request_success_total"));

        CounterDelta unknown = CounterDelta.between(at("up 1\n", 0), at("up 1\n", 1));
        assertThat(unknown.flavor()).isEqualTo(ServerFlavor.UNKNOWN);
        assertThat(unknown.changes()).allSatisfy(c -> assertThat(c).isInstanceOfSatisfying(CounterChange.Missing.class,
                m -> assertThat(m.detail()).isEqualTo("the scrape has no SGLang, vLLM or servebench metrics")));
    }

    @Test
    void scrapesOfDifferentServersOrOutOfOrderAreRejected() {
        assertThatThrownBy(() -> CounterDelta.between(at(ScrapeFixtures.SGLANG, 0),
                at(ScrapeFixtures.vllmV1(1, 1, 1, 0, 0), 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the scrapes come from different servers: SGLANG then VLLM");
        assertThatThrownBy(() -> CounterDelta.between(at(ScrapeFixtures.SGLANG, 5), at(ScrapeFixtures.SGLANG, 1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("precedes the first");
    }
}
