package dev.servebench.perf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.baseline.PairedPoint;
import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareRecordingTest {

    @TempDir
    Path dir;

    @Test
    void writtenRecordingReadsBackAndPairsRoundsBySide() throws IOException {
        List<CompareRecording.Measured> measured = new ArrayList<>();
        for (int round = 1; round <= 3; round++) {
            measured.add(new CompareRecording.Measured(round, "A", "concurrency=1", true,
                    Map.of("output_throughput", 100.0 + round, "machine_probe_ms", 80.0), ""));
            measured.add(new CompareRecording.Measured(round, "B", "concurrency=1", round != 2,
                    Map.of("output_throughput", 90.0 + round), ""));
        }
        measured.add(new CompareRecording.Measured(3, "B", "concurrency=16", false, Map.of(), "IOException: refused"));
        CompareRecording recording = new CompareRecording(CompareRecording.FORMAT, "s", "abc", 3, 0, 5,
                CompareRun.Pairing.SIMULTANEOUS, 1, Map.of("A", "a", "B", "b"), List.of(List.of("concurrency=1 A", "concurrency=1 B")), measured, 12.5);
        recording.write(dir);

        CompareRecording read = CompareRecording.read(dir);
        assertThat(read).isEqualTo(recording);
        assertThat(Files.readString(dir.resolve(CompareRecording.FILE))).contains("\"spec_sha256\" : \"abc\"")
                .contains("\"pairing\" : \"simultaneous\"");
        List<PairedPoint> points = read.pairedPoints();
        assertThat(points).extracting(PairedPoint::point)
                .containsExactly(LoadPointKey.concurrency(1), LoadPointKey.concurrency(16));
        PairedPoint first = points.getFirst();
        assertThat(first.a()).extracting(m -> m.get(MetricId.OUTPUT_THROUGHPUT)).containsExactly(101.0, 102.0, 103.0);
        // round 2 of B was invalid: it pairs nothing
        assertThat(first.b().get(1)).isEmpty();
        assertThat(points.get(1).b()).allSatisfy(round -> assertThat(round).isEmpty());
        assertThat(read.completeRounds()).isZero();
    }

    @Test
    void addedRoundsAreTheOnesAfterThePlannedOnesAndARecordingWithoutAPlanPlannedAll() {
        assertThat(recording(15, 12).addedRounds()).isEqualTo("rounds 13–15 added to replace rounds whose machine"
                + " probes disagreed");
        assertThat(recording(13, 12).addedRounds()).startsWith("round 13 added");
        assertThat(recording(12, 0).plannedRounds()).isEqualTo(12);
        assertThat(recording(12, 0).addedRounds()).isEmpty();
        assertThatThrownBy(() -> recording(12, 13)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("planned_rounds (13) must be in 1..rounds (12)");
    }

    @Test
    void instancesAreReadAsOneWhenUnrecordedAsTheRoundsWhenAlternatingAndNeverMoreThanThePlannedRounds() {
        assertThat(recording(12, 0).instances()).isEqualTo(1);
        assertThat(recording(12, 0).instancesNote()).isEmpty();
        assertThat(new CompareRecording(CompareRecording.FORMAT, "s", "abc", 5, 0, 1, CompareRun.Pairing.ALTERNATING, 0,
                Map.of(), List.of(), List.of(), 1).instances()).isEqualTo(5);
        CompareRecording blocks = new CompareRecording(CompareRecording.FORMAT, "s", "abc", 25, 24, 1,
                CompareRun.Pairing.SEQUENTIAL, 4, Map.of(), List.of(), List.of(), 1);
        assertThat(blocks.instancesNote()).isEqualTo("4 server instances per side, each started fresh for rounds 1–6,"
                + " 7–12, 13–18, 19–24 (added rounds on the last)");
        assertThatThrownBy(() -> new CompareRecording(CompareRecording.FORMAT, "s", "abc", 25, 24, 1,
                CompareRun.Pairing.SEQUENTIAL, 25, Map.of(), List.of(), List.of(), 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("instances (25) must be in 1..24 (at most one per planned round)");
    }

    private static CompareRecording recording(int rounds, int planned) {
        return new CompareRecording(CompareRecording.FORMAT, "s", "abc", rounds, planned, 1,
                CompareRun.Pairing.SEQUENTIAL, 0, Map.of("A", "a", "B", "b"), List.of(), List.of(), 1);
    }

    @Test
    void aRecordingFromBeforePairingWasAChoiceReadsAsSequential() throws IOException {
        CompareRecording recorded = CompareRecording.read(Path.of("fixtures/compare-check/embedded-compare-2core/aa"));

        assertThat(Files.readString(Path.of("fixtures/compare-check/embedded-compare-2core/aa/compare.json")))
                .doesNotContain("pairing");
        assertThat(recorded.pairing()).isEqualTo(CompareRun.Pairing.SEQUENTIAL);
    }

    @Test
    void anUnknownPairingSaysWhichAreKnown() throws IOException {
        Files.writeString(dir.resolve(CompareRecording.FILE), "{\"format\": \"" + CompareRecording.FORMAT
                + "\", \"spec\": \"s\", \"rounds\": 1, \"pairing\": \"duet\", \"targets\": {}, \"order\": [],"
                + " \"measurements\": []}");

        assertThatThrownBy(() -> CompareRecording.read(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("compare.json").hasMessageContaining("expected sequential, simultaneous or alternating");
    }

    @Test
    void aFileOfAnotherFormatSaysWhatItExpected() throws IOException {
        Files.writeString(dir.resolve(CompareRecording.FILE), "{\"format\": \"other\", \"spec\": \"s\", \"rounds\": 1,"
                + " \"targets\": {}, \"order\": [], \"measurements\": []}");

        assertThatThrownBy(() -> CompareRecording.read(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("compare.json").hasMessageContaining("expected " + CompareRecording.FORMAT);
    }

    @Test
    void everyRoundVisitsEachPointOnBothSidesBackToBackInASeededOrder() {
        List<LoadPointKey> points = List.of(LoadPointKey.concurrency(1), LoadPointKey.concurrency(16),
                LoadPointKey.concurrency(64));
        Set<List<String>> orders = new HashSet<>();
        for (int round = 1; round <= 8; round++) {
            List<String> visits = CompareRun.roundOrder(points, 3, round);
            assertThat(visits).hasSize(6).isEqualTo(CompareRun.roundOrder(points, 3, round));
            for (int i = 0; i < visits.size(); i += 2) {
                String point = visits.get(i).split(" ")[0];
                assertThat(visits.get(i + 1)).startsWith(point + " ").isNotEqualTo(visits.get(i));
            }
            orders.add(visits);
        }
        assertThat(orders).as("rounds are ordered differently").hasSizeGreaterThan(4);
        assertThat(CompareRun.roundOrder(points, 4, 1)).isNotEqualTo(CompareRun.roundOrder(points, 3, 1));
    }
}
