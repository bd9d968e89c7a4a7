package dev.servebench.perf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.SpecReader;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
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

    /** Servers of both sides that are up right now, and the most that ever were at once. */
    private final AtomicInteger up = new AtomicInteger();
    private final AtomicInteger mostUpAtOnce = new AtomicInteger();
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    private final PerformanceSpec spec = SpecReader.parse("""
            name: alternating
            target: {kind: url, url: http://127.0.0.1:1, backend: openai}
            workload: {dataset: random, input_len: 16, output_len: 4, range_ratio: 1.0, prompts: 3}
            sweep: {concurrency: [1, 2]}
            warmup: 1
            """, "alternating.yaml");

    @Test
    void oneServerIsUpAtATimeAndEachSideIsStartedForEachOfItsTurns() throws Exception {
        CompareRecording recording = AlternatingRounds.run(spec, launcher("A", Set.of()), launcher("B", Set.of()),
                ROUNDS, 5, measurement -> true, directory, CompareRun.Progress.NONE);

        assertThat(recording.pairing()).isEqualTo(CompareRun.Pairing.ALTERNATING);
        assertThat(recording.completeRounds()).isEqualTo(ROUNDS);
        assertThat(recording.measurements()).hasSize(ROUNDS * 2 * 2).allSatisfy(m -> assertThat(m.usable()).isTrue());
        assertThat(mostUpAtOnce).hasValue(1);
        assertThat(up).hasValue(0);
        assertThat(recording.targets()).containsEntry("A", "scripted A (its first start); scripted A");
        assertThat(events).filteredOn(e -> e.startsWith("start A")).hasSize(ROUNDS);
        assertThat(events).filteredOn(e -> e.startsWith("start B")).hasSize(ROUNDS);
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
        CompareRecording recording = AlternatingRounds.run(spec, launcher("A", Set.of()), launcher("B", Set.of(2)),
                ROUNDS, 5, measurement -> true, directory, CompareRun.Progress.NONE);

        assertThat(recording.completeRounds()).isEqualTo(ROUNDS - 1);
        assertThat(recording.measurements()).filteredOn(m -> !m.usable()).hasSize(2).allSatisfy(m -> {
            assertThat(m.side()).isEqualTo("B");
            assertThat(m.round()).isEqualTo(2);
            assertThat(m.error()).startsWith("not started for round 2: ").contains("port already taken");
        });
        assertThat(mostUpAtOnce).hasValue(1);
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

    /** Starts a scripted server for each turn, except in {@code failingRounds}, where starting throws. */
    private AlternatingRounds.Launcher launcher(String side, Set<Integer> failingRounds) {
        return new AlternatingRounds.Launcher() {
            @Override
            public String target() {
                return "scripted " + side;
            }

            @Override
            public AlternatingRounds.Started start(int round) throws IOException {
                if (failingRounds.contains(round)) {
                    throw new IOException("port already taken");
                }
                events.add("start " + side + " " + round);
                mostUpAtOnce.accumulateAndGet(up.incrementAndGet(), Math::max);
                ScriptedServer server = ScriptedServer.start(Script.of(Plan.builder().ttft(Duration.ofMillis(5))
                        .gap(Duration.ofMillis(1)).build()));
                SpecRunner runner = new SpecRunner(spec, server.baseUri(), Optional.empty(), Optional.empty(),
                        SpecRunner.Vocabulary.DEFAULT, directory.resolve(side), "url");
                return new AlternatingRounds.Started(new CompareRun.Side(side, runner, "scripted " + side
                        + " (its first start)"), () -> {
                    server.close();
                    up.decrementAndGet();
                    events.add("stop " + side + " " + round);
                });
            }
        };
    }
}
