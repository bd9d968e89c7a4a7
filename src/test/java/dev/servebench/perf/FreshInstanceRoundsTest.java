package dev.servebench.perf;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rounds in blocks on fresh servers, seen from the servers: each block's rounds reach only that block's
 * instances, the previous ones are stopped before the next start, added rounds stay on the last block's, and
 * a side that cannot start leaves its block unpaired while the next block goes on.
 */
class FreshInstanceRoundsTest {

    private static final int ROUNDS = 6;
    private static final int INSTANCES = 3;

    @TempDir
    Path directory;

    @Test
    void eachBlockOfRoundsIsMeasuredOnItsOwnFreshServersAndAddedRoundsOnTheLast() throws Exception {
        ScriptedLaunches servers = new ScriptedLaunches(directory);
        CompareRecording recording = FreshInstanceRounds.run(ScriptedLaunches.SPEC, servers.launcher("A", Set.of()),
                servers.launcher("B", Set.of()),
                new InstanceBlocks(ROUNDS, INSTANCES), new CompareRun.ExtraRounds(1, soFar -> true), 5,
                CompareRun.Pairing.SEQUENTIAL, measurement -> true, directory, CompareRun.Progress.NONE);

        assertThat(recording.rounds()).isEqualTo(ROUNDS + 1);
        assertThat(recording.instances()).isEqualTo(INSTANCES);
        assertThat(recording.completeRounds()).isEqualTo(ROUNDS + 1);
        assertThat(recording.instancesNote()).isEqualTo("3 server instances per side, each started fresh for rounds"
                + " 1–2, 3–4, 5–6 (added rounds on the last)");
        assertThat(servers.events).hasSize(12);
        for (int block = 0; block < INSTANCES; block++) {
            int first = 1 + 2 * block;
            List<String> starts = servers.events.subList(4 * block, 4 * block + 2);
            assertThat(starts).as("block from round %d starts both, in the seeded order", first)
                    .containsExactly(FreshInstanceRounds.aStartsFirst(5, first)
                            ? new String[] {"start A " + first, "start B " + first}
                            : new String[] {"start B " + first, "start A " + first});
            assertThat(servers.events.subList(4 * block + 2, 4 * block + 4)).as("and stops both before the next block")
                    .containsExactly("stop A " + first, "stop B " + first);
        }
        assertThat(servers.mostUpAtOnce).hasValue(2);
        assertThat(servers.up).hasValue(0);
        // every round asks the same of each side (a warm-up and the prompts at each point): two rounds for the
        // first block's servers, three for the last's (its two and the added one)
        assertThat(servers.served.get("A 1")).isPositive().isEqualTo(servers.served.get("A 3"))
                .isEqualTo(servers.served.get("B 1"));
        assertThat(servers.served.get("A 5") * 2).isEqualTo(servers.served.get("A 1") * 3);
        assertThat(recording.targets()).containsEntry("B", "scripted B (its first start); scripted B");
    }

    @Test
    void aSideThatCannotStartLeavesItsBlockUnpairedAndTheNextBlockGoesOn() throws Exception {
        ScriptedLaunches servers = new ScriptedLaunches(directory);
        CompareRecording recording = FreshInstanceRounds.run(ScriptedLaunches.SPEC, servers.launcher("A", Set.of()),
                servers.launcher("B", Set.of(3)),
                new InstanceBlocks(ROUNDS, INSTANCES), CompareRun.ExtraRounds.NONE, 5, CompareRun.Pairing.SEQUENTIAL,
                measurement -> true, directory, CompareRun.Progress.NONE);

        assertThat(recording.completeRounds()).isEqualTo(ROUNDS - 2);
        assertThat(recording.measurements()).filteredOn(m -> !m.usable()).hasSize(2 * 2 * 2).allSatisfy(m -> {
            assertThat(m.round()).isIn(3, 4);
            assertThat(m.error())
                    .isEqualTo("B not started for the block from round 3: IOException: port already taken");
        });
        assertThat(servers.events).containsSubsequence("start A 3", "stop A 3", "start A 5").contains("start B 5")
                .doesNotContain("start B 3");
        assertThat(servers.up).hasValue(0);
    }

    @Test
    void simultaneousPairsRunWithinABlockToo() throws Exception {
        ScriptedLaunches servers = new ScriptedLaunches(directory);
        CompareRecording recording = FreshInstanceRounds.run(ScriptedLaunches.SPEC, servers.launcher("A", Set.of()),
                servers.launcher("B", Set.of()),
                new InstanceBlocks(2, 2), CompareRun.ExtraRounds.NONE, 5, CompareRun.Pairing.SIMULTANEOUS,
                measurement -> true, directory, CompareRun.Progress.NONE);

        assertThat(recording.pairing()).isEqualTo(CompareRun.Pairing.SIMULTANEOUS);
        assertThat(recording.completeRounds()).isEqualTo(2);
        CompareRecording written = CompareRecording.read(directory);
        assertThat(written.instances()).isEqualTo(2);
        assertThat(written.measurements()).isEqualTo(recording.measurements());
    }

    @Test
    void eitherSideMayStartFirst() {
        java.util.Set<Boolean> seen = new java.util.HashSet<>();
        for (int round = 1; round <= 20; round++) {
            seen.add(FreshInstanceRounds.aStartsFirst(3, round));
        }
        assertThat(seen).containsExactlyInAnyOrder(true, false);
    }
}
