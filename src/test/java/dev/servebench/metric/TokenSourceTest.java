package dev.servebench.metric;

import static dev.servebench.metric.MetricId.OUTPUT_THROUGHPUT;
import static dev.servebench.metric.MetricId.TOKEN_COUNT_MISMATCHES;
import static dev.servebench.metric.MetricId.TOTAL_OUTPUT_TOKENS;
import static dev.servebench.metric.MetricId.USAGE_MISSING;
import static dev.servebench.metric.Records.aRequest;
import static dev.servebench.metric.Records.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.FailureKind;
import dev.servebench.record.RequestRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenSourceTest {

    /** usage 10 vs 3 chunked tokens; usage 2 = 2 chunks; no usage with 4 chunked; failed with usage. */
    private static List<RequestRecord> mixed() {
        return Records.inOrder(
                aRequest().sentAt(0).chunksAt(ms(100), ms(200), ms(300)).usage(10, 10),
                aRequest().sentAt(0).chunksAt(ms(100), ms(200)).usage(10, 2),
                aRequest().sentAt(0).chunk(ms(100), 1).chunk(ms(200), 3),
                aRequest().sentAt(0).chunksAt(ms(100)).usage(10, 50).failed(FailureKind.RESET));
    }

    @Test
    void serverUsageWithChunkFallback() {
        ServingSummary s = SummaryCalculator.compute(mixed(), 2_000_000_000L, MetricOptions.of(TokenSource.SERVER_USAGE));
        assertThat(s.tokenSource()).isEqualTo(TokenSource.SERVER_USAGE);
        assertThat(s.value(TOTAL_OUTPUT_TOKENS)).hasValue(16.0);
        assertThat(s.value(OUTPUT_THROUGHPUT)).hasValue(8.0);
        assertThat(s.tokenSourceFallbacks()).isEqualTo(1);
        assertThat(s.notes()).anyMatch(n -> n.startsWith("1 successful request(s) had no server usage"));
    }

    @Test
    void chunkCountIgnoresUsage() {
        ServingSummary s = SummaryCalculator.compute(mixed(), 2_000_000_000L, MetricOptions.of(TokenSource.CHUNK_COUNT));
        assertThat(s.value(TOTAL_OUTPUT_TOKENS)).hasValue(9.0);
        assertThat(s.value(OUTPUT_THROUGHPUT)).hasValue(4.5);
        assertThat(s.tokenSourceFallbacks()).isZero();
        assertThat(s.notes()).noneMatch(n -> n.contains("no server usage"));
    }

    @Test
    void mismatchesAndMissingUsageAreCountedWhateverTheSource() {
        for (TokenSource source : TokenSource.values()) {
            ServingSummary s = SummaryCalculator.compute(mixed(), 2_000_000_000L, MetricOptions.of(source));
            assertThat(s.tokenCountMismatches()).as(source.name()).isEqualTo(1);
            assertThat(s.value(TOKEN_COUNT_MISMATCHES)).as(source.name()).hasValue(1.0);
            assertThat(s.usageMissing()).as(source.name()).isEqualTo(1);
            assertThat(s.value(USAGE_MISSING)).as(source.name()).hasValue(1.0);
            assertThat(s.notes()).as(source.name())
                    .anyMatch(n -> n.startsWith("1 successful request(s) reported usage.completion_tokens different"));
        }
    }

    @Test
    void perRequestOutputLength() {
        RequestRecord withUsage = aRequest().index(0).sentAt(0).chunksAt(ms(1), ms(2)).usage(5, 7).build();
        RequestRecord without = aRequest().index(1).sentAt(0).chunk(ms(1), 2).chunk(ms(2), 3).build();
        assertThat(TokenSource.SERVER_USAGE.outputLength(withUsage)).isEqualTo(7);
        assertThat(TokenSource.SERVER_USAGE.outputLength(without)).isEqualTo(5);
        assertThat(TokenSource.SERVER_USAGE.fellBack(without)).isTrue();
        assertThat(TokenSource.SERVER_USAGE.fellBack(withUsage)).isFalse();
        assertThat(TokenSource.CHUNK_COUNT.outputLength(withUsage)).isEqualTo(2);
        assertThat(TokenSource.CHUNK_COUNT.fellBack(without)).isFalse();
    }

    @Test
    void usageOfZeroIsTakenAtItsWord() {
        // SGLang takes usage.completion_tokens as reported; only a missing usage falls back
        RequestRecord zero = aRequest().index(0).sentAt(0).chunksAt(ms(1), ms(2)).usage(5, 0).build();
        assertThat(TokenSource.SERVER_USAGE.outputLength(zero)).isZero();
    }

    @Test
    void everySourceHasADescription() {
        assertThat(TokenSource.SERVER_USAGE.description()).contains("usage.completion_tokens");
        assertThat(TokenSource.CHUNK_COUNT.description()).contains("chunks");
    }
}
