package dev.servebench.telemetry.counters;

import static dev.servebench.telemetry.counters.CounterKind.FINISHED_REQUESTS;
import static dev.servebench.telemetry.counters.CounterKind.GENERATED_TOKENS;
import static dev.servebench.telemetry.counters.CounterKind.PROMPT_TOKENS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.record.ChunkTimeline;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ClientTotalsTest {

    /** A request with {@code chunkTokens} one-token events, sent at 0 and ended at 1 s. */
    private static RequestRecord request(int index, int promptLen, int chunkTokens, Usage usage, Outcome outcome) {
        long[] nanos = new long[chunkTokens];
        int[] tokens = new int[chunkTokens];
        for (int i = 0; i < chunkTokens; i++) {
            nanos[i] = 1_000_000L * (i + 1);
            tokens[i] = 1;
        }
        return new RequestRecord(index, promptLen, 64, 0, 0, 1_000_000_000L, ChunkTimeline.of(nanos, tokens),
                Optional.ofNullable(usage), outcome);
    }

    @Test
    void usageTotalsOfSuccessfulRequests() {
        ClientTotals totals = ClientTotals.fromRecords(List.of(
                request(0, 128, 64, new Usage(129, 64), Outcome.SUCCESS),
                request(1, 128, 64, new Usage(129, 64), Outcome.SUCCESS)));

        assertThat(totals.count(GENERATED_TOKENS)).isEqualTo(new ClientCount(128, "usage"));
        assertThat(totals.count(PROMPT_TOKENS)).isEqualTo(new ClientCount(258, "usage"));
        assertThat(totals.count(FINISHED_REQUESTS)).isEqualTo(new ClientCount(2, "requests sent"));
    }

    @Test
    void requestsWithoutUsageFallBackAndSaySo() {
        ClientTotals totals = ClientTotals.fromRecords(List.of(
                request(0, 128, 64, new Usage(129, 64), Outcome.SUCCESS),
                request(1, 128, 10, null, Outcome.failure(FailureKind.TIMEOUT, "stalled")),
                request(2, 128, 3, null, Outcome.failure(FailureKind.RESET, "reset"))));

        assertThat(totals.generatedTokens())
                .isEqualTo(new ClientCount(77, "usage; 2 of 3 without usage: chunk count"));
        assertThat(totals.promptTokens())
                .isEqualTo(new ClientCount(129 + 128 + 128, "usage; 2 of 3 without usage: dataset prompt_len"));
        assertThat(totals.requests().value()).isEqualTo(3);
    }

    @Test
    void requestsRefusedBeforeTheEngineAreLeftOut() {
        ClientTotals totals = ClientTotals.fromRecords(List.of(
                request(0, 128, 64, new Usage(129, 64), Outcome.SUCCESS),
                request(1, 128, 0, null, new Outcome.Failure(FailureKind.HTTP_STATUS, "429 Too Many Requests", 429)),
                request(2, 128, 0, null, Outcome.failure(FailureKind.CONNECT, "refused"))));

        assertThat(totals.generatedTokens()).isEqualTo(new ClientCount(64, "usage"));
        assertThat(totals.requests()).isEqualTo(new ClientCount(1,
                "requests sent, less 2 refused before the engine (connect or HTTP status)"));
    }

    @Test
    void noRecordsCountNothing() {
        assertThat(ClientTotals.fromRecords(List.of())).isEqualTo(ClientTotals.fromUsage(0, 0, 0));
    }

    @Test
    void aClientCountNeedsAValueAndASource() {
        assertThatThrownBy(() -> new ClientCount(-1, "usage")).hasMessageContaining("must be >= 0");
        assertThatThrownBy(() -> new ClientCount(1, " ")).hasMessageContaining("source");
    }
}
