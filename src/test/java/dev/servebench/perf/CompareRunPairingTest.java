package dev.servebench.perf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.SpecReader;
import dev.servebench.testserver.EmissionLog;
import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What each pairing does to the two servers, seen from their side: back to back, no request of A is ever in
 * flight while one of B is; together, A's and B's measured requests overlap in every round.
 */
class CompareRunPairingTest {

    private static final int ROUNDS = 3;
    private static final int PROMPTS = 4;

    @TempDir
    Path directory;

    @Test
    void sequentialPairsNeverLoadBothServersAtOnce() throws Exception {
        try (ScriptedServer a = server(); ScriptedServer b = server()) {
            CompareRecording recording = compare(a, b, CompareRun.Pairing.SEQUENTIAL);

            assertThat(recording.completeRounds()).isEqualTo(ROUNDS);
            assertThat(recording.pairing()).isEqualTo(CompareRun.Pairing.SEQUENTIAL);
            assertThat(overlapping(a.emissions(), b.emissions())).isZero();
        }
    }

    @Test
    void simultaneousPairsLoadBothServersTogetherInEveryRound() throws Exception {
        try (ScriptedServer a = server(); ScriptedServer b = server()) {
            CompareRecording recording = compare(a, b, CompareRun.Pairing.SIMULTANEOUS);

            assertThat(recording.completeRounds()).isEqualTo(ROUNDS);
            assertThat(recording.pairing()).isEqualTo(CompareRun.Pairing.SIMULTANEOUS);
            assertThat(recording.measurements()).hasSize(2 * ROUNDS)
                    .allSatisfy(m -> assertThat(m.usable()).as(m.error()).isTrue());
            // Both sides send the same prompts at the same moments: nearly every measured request of A has a
            // request of B in flight beside it (warm-ups, done one side after the other, do not).
            assertThat(overlapping(a.emissions(), b.emissions())).isGreaterThanOrEqualTo(ROUNDS * (PROMPTS - 1));
        }
    }

    @Test
    void extraRoundsAreAddedOneAtATimeWhileWantedAndNeverBeyondTheirMaximum() throws Exception {
        try (ScriptedServer a = server(); ScriptedServer b = server()) {
            List<Integer> asked = new java.util.ArrayList<>();
            CompareRecording recording = compare(a, b, CompareRun.Pairing.SEQUENTIAL,
                    new CompareRun.ExtraRounds(2, soFar -> asked.add(soFar.rounds())));

            assertThat(asked).as("asked after the planned rounds and after each added one, until the maximum")
                    .containsExactly(ROUNDS, ROUNDS + 1);
            assertThat(recording.rounds()).isEqualTo(ROUNDS + 2);
            assertThat(recording.order()).hasSize(ROUNDS + 2);
            assertThat(recording.completeRounds()).isEqualTo(ROUNDS + 2);
            assertThat(recording.measurements()).filteredOn(m -> m.round() == ROUNDS + 2).hasSize(2);
        }
    }

    private CompareRecording compare(ScriptedServer a, ScriptedServer b, CompareRun.Pairing pairing)
            throws IOException, InterruptedException {
        return compare(a, b, pairing, CompareRun.ExtraRounds.NONE);
    }

    private CompareRecording compare(ScriptedServer a, ScriptedServer b, CompareRun.Pairing pairing,
            CompareRun.ExtraRounds extra) throws IOException, InterruptedException {
        PerformanceSpec spec = SpecReader.parse("""
                name: pairing
                target: {kind: url, url: %s, backend: openai}
                workload: {dataset: random, input_len: 16, output_len: 8, range_ratio: 1.0, prompts: %d}
                sweep: {concurrency: [1]}
                warmup: 1
                """.formatted(a.baseUri(), PROMPTS), "pairing.yaml");
        try (SpecRunner runnerA = runner(spec, a.baseUri(), "A"); SpecRunner runnerB = runner(spec, b.baseUri(), "B")) {
            return CompareRun.run(spec, new CompareRun.Side("A", runnerA, "a"), new CompareRun.Side("B", runnerB, "b"),
                    ROUNDS, extra, 7, pairing, measurement -> true, directory, CompareRun.Progress.NONE);
        }
    }

    private SpecRunner runner(PerformanceSpec spec, URI url, String side) throws IOException {
        return new SpecRunner(spec, url, Optional.empty(), Optional.empty(), SpecRunner.Vocabulary.DEFAULT,
                directory.resolve(side), "url");
    }

    /** 20 ms to the first token, 5 ms per token after it: a measured request is in flight for ~55 ms. */
    private static ScriptedServer server() {
        return ScriptedServer.start(Script.of(Plan.builder().ttft(Duration.ofMillis(20)).gap(Duration.ofMillis(5))
                .build()));
    }

    /** Requests of A during which some request of B was in flight. */
    private static long overlapping(List<EmissionLog> a, List<EmissionLog> b) {
        return a.stream().filter(x -> b.stream().anyMatch(y -> x.arrivalNanos() < end(y) && y.arrivalNanos() < end(x)))
                .count();
    }

    private static long end(EmissionLog log) {
        long[] chunks = log.chunkNanos();
        return chunks.length == 0 ? log.arrivalNanos() : chunks[chunks.length - 1];
    }
}
