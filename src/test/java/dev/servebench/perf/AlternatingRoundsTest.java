package dev.servebench.perf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.spec.LoadPointKey;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Alternating rounds, seen from the servers: one up at a time, each started for its turn and stopped after it,
 * a side that cannot start leaves that round's points unmeasured with the reason, and the rounds go on.
 */
class AlternatingRoundsTest {

    private static final int ROUNDS = 3;

    @TempDir
    Path directory;

    @Test
    void oneServerIsUpAtATimeAndEachSideIsStartedForEachOfItsTurns() throws Exception {
        ScriptedLaunches servers = new ScriptedLaunches(directory);
        CompareRecording recording = AlternatingRounds.run(ScriptedLaunches.SPEC, servers.launcher("A", Set.of()),
                servers.launcher("B", Set.of()),
                ROUNDS, 5, measurement -> true, directory, CompareRun.Progress.NONE);

        assertThat(recording.pairing()).isEqualTo(CompareRun.Pairing.ALTERNATING);
        assertThat(recording.completeRounds()).isEqualTo(ROUNDS);
        assertThat(recording.measurements()).hasSize(ROUNDS * 2 * 2).allSatisfy(m -> assertThat(m.usable()).isTrue());
        assertThat(servers.mostUpAtOnce).hasValue(1);
        assertThat(servers.up).hasValue(0);
        assertThat(recording.targets()).containsEntry("A", "scripted A (its first start); scripted A");
        assertThat(servers.events).filteredOn(e -> e.startsWith("start A")).hasSize(ROUNDS);
        assertThat(servers.events).filteredOn(e -> e.startsWith("start B")).hasSize(ROUNDS);
        for (List<String> visits : recording.order()) {
            // one side's turn, then the other's, over the same points in the same order
            assertThat(visits).hasSize(4);
            assertThat(visits.subList(0, 2)).allMatch(v -> v.endsWith(visits.getFirst().substring(visits.getFirst().length() - 1)));
            assertThat(visits.subList(2, 4)).noneMatch(v -> v.endsWith(visits.getFirst().substring(visits.getFirst().length() - 1)));
            assertThat(visits.subList(2, 4).stream().map(v -> v.split(" ")[0]).toList())
                    .isEqualTo(visits.subList(0, 2).stream().map(v -> v.split(" ")[0]).toList());
        }
        assertThat(CompareRecording.read(directory).measurements()).hasSize(ROUNDS * 2 * 2);
    }

    @Test
    void aSideThatCannotStartLeavesThatRoundUnpairedAndTheOthersGoOn() throws Exception {
        ScriptedLaunches servers = new ScriptedLaunches(directory);
        CompareRecording recording = AlternatingRounds.run(ScriptedLaunches.SPEC, servers.launcher("A", Set.of()),
                servers.launcher("B", Set.of(2)),
                ROUNDS, 5, measurement -> true, directory, CompareRun.Progress.NONE);

        assertThat(recording.completeRounds()).isEqualTo(ROUNDS - 1);
        assertThat(recording.measurements()).filteredOn(m -> !m.usable()).hasSize(2).allSatisfy(m -> {
            assertThat(m.side()).isEqualTo("B");
            assertThat(m.round()).isEqualTo(2);
            assertThat(m.error()).startsWith("not started for round 2: ").contains("port already taken");
        });
        assertThat(servers.mostUpAtOnce).hasValue(1);
    }

    @Test
    void eitherSideMayGoFirstAndTheOrderIsSeeded() {
        List<LoadPointKey> points = List.of(LoadPointKey.concurrency(1), LoadPointKey.concurrency(16));
        Set<String> firsts = new HashSet<>();
        for (int round = 1; round <= 20; round++) {
            List<String> visits = AlternatingRounds.alternatingOrder(points, 3, round);
            firsts.add(visits.getFirst().split(" ")[1]);
            assertThat(AlternatingRounds.alternatingOrder(points, 3, round)).isEqualTo(visits);
        }
        assertThat(firsts).containsExactlyInAnyOrder("A", "B");
    }
}
