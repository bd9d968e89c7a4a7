package dev.servebench.telemetry.counters;

import static dev.servebench.telemetry.counters.CounterKind.FINISHED_REQUESTS;
import static dev.servebench.telemetry.counters.CounterKind.GENERATED_TOKENS;
import static dev.servebench.telemetry.counters.CounterKind.PROMPT_TOKENS;
import static dev.servebench.telemetry.counters.CrossCheckVerdict.AGREE;
import static dev.servebench.telemetry.counters.CrossCheckVerdict.COUNTER_RESET;
import static dev.servebench.telemetry.counters.CrossCheckVerdict.DISAGREE;
import static dev.servebench.telemetry.counters.CrossCheckVerdict.SERVER_HAS_NO_COUNTER;
import static dev.servebench.telemetry.counters.ServerCountersTest.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.telemetry.TelemetryJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenCrossCheckTest {

    private static CounterDelta delta(CounterChange generated, CounterChange prompt, CounterChange requests) {
        return new CounterDelta(ServerFlavor.VLLM, T0, T0.plusSeconds(60), List.of(generated, prompt, requests));
    }

    private static CounterChange.Increased increased(CounterKind kind, double by) {
        return new CounterChange.Increased(kind, "vllm:" + kind.name().toLowerCase() + "_total", by, 0);
    }

    private static CounterDelta server(double generated, double prompt, double requests) {
        return delta(increased(GENERATED_TOKENS, generated), increased(PROMPT_TOKENS, prompt),
                increased(FINISHED_REQUESTS, requests));
    }

    @Test
    void equalCountsAgreeInOnePlainLine() {
        CrossCheckResult result = TokenCrossCheck.compare(server(8192, 16512, 64), 8192, 16512, 64,
                TokenCrossCheck.DEFAULT_TOLERANCE);

        assertThat(result.verdict()).isEqualTo(AGREE);
        CounterCheck generated = result.check(GENERATED_TOKENS);
        assertThat(generated.line()).isEqualTo("server counted 8,192 generated tokens, client 8,192 (usage) — agree");
        assertThat(generated.serverCount()).isEqualTo(8192.0);
        assertThat(generated.clientCount()).isEqualTo(8192);
        assertThat(generated.relativeDifference()).isEqualTo(0.0);
        assertThat(result.check(FINISHED_REQUESTS).line())
                .isEqualTo("server counted 64 finished requests, client 64 (requests sent) — agree");
        assertThat(result.lines()).hasLineCount(3);
    }

    @Test
    void aSmallDifferenceAgreesAndSaysHowSmall() {
        CounterCheck check = TokenCrossCheck.compare(server(1_000_070, 10, 1), 1_000_000, 10, 1, 0.01)
                .check(GENERATED_TOKENS);

        assertThat(check.verdict()).isEqualTo(AGREE);
        assertThat(check.relativeDifference()).isEqualTo(70.0 / 1e6);
        assertThat(check.line()).isEqualTo(
                "server counted 1,000,070 generated tokens, client 1,000,000 (usage): +0.01%, within ±1% — agree");
    }

    @Test
    void theToleranceIsInclusive() {
        assertThat(TokenCrossCheck.compare(server(101, 10, 1), 100, 10, 1, 0.01).check(GENERATED_TOKENS).verdict())
                .isEqualTo(AGREE);
        assertThat(TokenCrossCheck.compare(server(102, 10, 1), 100, 10, 1, 0.01).check(GENERATED_TOKENS).verdict())
                .isEqualTo(DISAGREE);
        assertThat(TokenCrossCheck.compare(server(99, 10, 1), 100, 10, 1, 0.01).check(GENERATED_TOKENS).verdict())
                .isEqualTo(AGREE);
    }

    @Test
    void aLargeDifferenceDisagreesInEitherDirection() {
        // e.g. the client counted chunks while the server packed 4 tokens per chunk
        CrossCheckResult result = TokenCrossCheck.compare(server(8192, 100, 64),
                new ClientTotals(new ClientCount(2048, "chunk count"), new ClientCount(100, "usage"),
                        new ClientCount(64, "requests sent")), 0.005);

        assertThat(result.verdict()).isEqualTo(DISAGREE);
        assertThat(result.check(GENERATED_TOKENS).relativeDifference()).isEqualTo(3.0);
        assertThat(result.check(GENERATED_TOKENS).line()).isEqualTo(
                "server counted 8,192 generated tokens, client 2,048 (chunk count): +300.00%, beyond ±0.5% — disagree");
        assertThat(result.check(PROMPT_TOKENS).verdict()).isEqualTo(AGREE);

        CounterCheck fewer = TokenCrossCheck.compare(server(900, 100, 64), 1000, 100, 64, 0.01).check(GENERATED_TOKENS);
        assertThat(fewer.verdict()).isEqualTo(DISAGREE);
        assertThat(fewer.line()).contains(": -10.00%, beyond ±1%");
    }

    @Test
    void aClientZeroAgreesOnlyWithAServerZero() {
        assertThat(TokenCrossCheck.compare(server(0, 0, 0), 0, 0, 0, 0.01).verdict()).isEqualTo(AGREE);

        CounterCheck check = TokenCrossCheck.compare(server(5, 0, 0), 0, 0, 0, 0.01).check(GENERATED_TOKENS);
        assertThat(check.verdict()).isEqualTo(DISAGREE);
        assertThat(check.relativeDifference()).isNull();
        assertThat(check.line()).isEqualTo("server counted 5 generated tokens, client 0 (usage) — disagree");
    }

    @Test
    void missingAndResetCountersAreNotChecked() {
        CounterDelta delta = delta(increased(GENERATED_TOKENS, 64),
                new CounterChange.Missing(PROMPT_TOKENS, "vLLM exposes no vllm:prompt_tokens_total"),
                new CounterChange.Reset(FINISHED_REQUESTS, "vllm:request_success_total", 900, 3,
                        "vllm:request_success_total{finished_reason=stop} went from 900 to 3"));

        CrossCheckResult result = TokenCrossCheck.compare(delta, 64, 128, 1, 0.01);

        assertThat(result.check(PROMPT_TOKENS).verdict()).isEqualTo(SERVER_HAS_NO_COUNTER);
        assertThat(result.check(PROMPT_TOKENS).serverCount()).isNull();
        assertThat(result.check(PROMPT_TOKENS).line()).isEqualTo("server has no prompt-token counter (vLLM exposes no"
                + " vllm:prompt_tokens_total), client 128 (usage) — not checked");
        assertThat(result.check(FINISHED_REQUESTS).verdict()).isEqualTo(COUNTER_RESET);
        assertThat(result.check(FINISHED_REQUESTS).line()).isEqualTo("server's finished-request counter went back"
                + " during the run (vllm:request_success_total{finished_reason=stop} went from 900 to 3; restarted?),"
                + " client 1 (requests sent) — not checked");
        assertThat(result.verdict()).isEqualTo(COUNTER_RESET);
    }

    @Test
    void theOverallVerdictIsTheWorstComparable() {
        CounterChange.Missing noPrompt = new CounterChange.Missing(PROMPT_TOKENS, "none");
        CounterChange.Missing noRequests = new CounterChange.Missing(FINISHED_REQUESTS, "none");

        assertThat(TokenCrossCheck.compare(delta(increased(GENERATED_TOKENS, 64), noPrompt, noRequests), 64, 1, 1, 0.01)
                .verdict()).isEqualTo(AGREE);
        assertThat(TokenCrossCheck.compare(delta(new CounterChange.Missing(GENERATED_TOKENS, "none"), noPrompt,
                noRequests), 64, 1, 1, 0.01).verdict()).isEqualTo(SERVER_HAS_NO_COUNTER);
        assertThat(TokenCrossCheck.compare(delta(increased(GENERATED_TOKENS, 64), noPrompt,
                new CounterChange.Reset(FINISHED_REQUESTS, "r", 2, 1, "d")), 99, 1, 1, 0.01).verdict())
                .isEqualTo(DISAGREE);
    }

    @Test
    void toleranceMustBeAFraction() {
        for (double bad : new double[] {-0.01, 1.5, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> TokenCrossCheck.compare(server(1, 1, 1), 1, 1, 1, bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must be a fraction in [0, 1]");
        }
    }

    @Test
    void theResultIsJsonWithSnakeCaseKeysAndStatusTags() throws Exception {
        CounterDelta delta = delta(increased(GENERATED_TOKENS, 8192),
                new CounterChange.Missing(PROMPT_TOKENS, "none"), increased(FINISHED_REQUESTS, 64));
        CrossCheckResult result = TokenCrossCheck.compare(delta, 8192, 100, 64, 0.01);

        JsonNode json = new ObjectMapper().readTree(TelemetryJson.toJson(result));
        assertThat(json.path("flavor").asText()).isEqualTo("VLLM");
        assertThat(json.path("from").asText()).isEqualTo("2026-12-02T15:00:00Z");
        assertThat(json.path("verdict").asText()).isEqualTo("AGREE");
        assertThat(json.path("checks").get(0).path("server_count").asDouble()).isEqualTo(8192.0);
        assertThat(json.path("checks").get(0).path("relative_difference").asDouble()).isEqualTo(0.0);
        assertThat(json.path("checks").get(1).path("server_count").isNull()).isTrue();
        assertThat(json.path("checks").get(1).path("verdict").asText()).isEqualTo("SERVER_HAS_NO_COUNTER");

        JsonNode changes = new ObjectMapper().readTree(TelemetryJson.toJson(delta)).path("changes");
        assertThat(changes.get(0).path("status").asText()).isEqualTo("increased");
        assertThat(changes.get(0).path("series_started_after").asInt()).isZero();
        assertThat(changes.get(1).path("status").asText()).isEqualTo("missing");
    }
}
