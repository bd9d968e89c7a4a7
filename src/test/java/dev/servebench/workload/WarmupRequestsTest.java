package dev.servebench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class WarmupRequestsTest {

    private final List<PromptRequest> dataset = List.of(
            PromptRequest.ofTokenIds(0, new int[] {1, 2, 3}, 100),
            PromptRequest.ofTokenIds(1, new int[] {4}, 5));

    @Test
    void copiesTheFirstRowWithOutputCappedAt32() {
        WarmupRequests warmup = WarmupRequests.of(dataset, 3);
        assertThat(warmup.size()).isEqualTo(3);
        assertThat(warmup.requests()).extracting(PromptRequest::index).containsExactly(0, 1, 2);
        assertThat(warmup.requests()).allSatisfy(row -> {
            assertThat(row.prompt()).isEqualTo(dataset.get(0).prompt());
            assertThat(row.promptLen()).isEqualTo(3);
            assertThat(row.outputLen()).isEqualTo(32);
        });
    }

    @Test
    void keepsShorterOutputs() {
        List<PromptRequest> shortFirst = List.of(PromptRequest.ofText(0, " hello there", 2, 7));
        assertThat(WarmupRequests.of(shortFirst, 1).requests().getFirst().outputLen()).isEqualTo(7);
    }

    @Test
    void zeroWarmupsIsEmptyEvenForAnEmptyDataset() {
        assertThat(WarmupRequests.of(List.of(), 0).isEmpty()).isTrue();
    }

    @Test
    void validates() {
        assertThatThrownBy(() -> WarmupRequests.of(dataset, -1)).hasMessage("count (-1) must be >= 0");
        assertThatThrownBy(() -> WarmupRequests.of(List.of(), 2))
                .hasMessage("dataset is empty; cannot build 2 warmup requests");
    }

    @Test
    void isImmutable() {
        WarmupRequests warmup = WarmupRequests.of(dataset, 1);
        assertThatThrownBy(() -> warmup.requests().clear()).isInstanceOf(UnsupportedOperationException.class);
    }
}
