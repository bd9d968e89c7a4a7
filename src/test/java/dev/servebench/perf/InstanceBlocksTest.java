package dev.servebench.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class InstanceBlocksTest {

    @Test
    void roundsSplitIntoBlocksAsEvenAsTheyDivide() {
        assertThat(new InstanceBlocks(24, 4).firstRounds()).containsExactly(1, 7, 13, 19);
        assertThat(new InstanceBlocks(24, 4).describe()).isEqualTo("rounds 1–6, 7–12, 13–18, 19–24");
        assertThat(new InstanceBlocks(10, 6).firstRounds()).containsExactly(1, 2, 4, 6, 7, 9);
        assertThat(new InstanceBlocks(10, 6).describe()).isEqualTo("rounds 1, 2–3, 4–5, 6, 7–8, 9–10");
        assertThat(new InstanceBlocks(24, 1).firstRounds()).containsExactly(1);
        assertThat(new InstanceBlocks(3, 3).describe()).isEqualTo("rounds 1, 2, 3");
    }

    @Test
    void blocksStartOnlyAtTheirFirstPlannedRound() {
        InstanceBlocks blocks = new InstanceBlocks(24, 4);
        assertThat(IntStream.rangeClosed(1, 30).filter(blocks::startsBlock).boxed().toList())
                .containsExactly(1, 7, 13, 19);
    }

    @Test
    void byDefaultSixInstancesButNoBlockShorterThanFourRounds() {
        assertThat(InstanceBlocks.byDefault(24)).isEqualTo(6);
        assertThat(InstanceBlocks.byDefault(48)).isEqualTo(6);
        assertThat(InstanceBlocks.byDefault(12)).isEqualTo(3);
        assertThat(InstanceBlocks.byDefault(7)).isEqualTo(1);
        assertThat(InstanceBlocks.byDefault(1)).isEqualTo(1);
    }

    @Test
    void moreInstancesThanRoundsOrNoneAreRefusedWithWhatIsAllowed() {
        assertThatThrownBy(() -> new InstanceBlocks(24, 25)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("instances (25) must be in 1..24 (one block of rounds per instance, at least one round each)");
        assertThatThrownBy(() -> new InstanceBlocks(24, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new InstanceBlocks(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rounds (0) must be >= 1");
    }
}
