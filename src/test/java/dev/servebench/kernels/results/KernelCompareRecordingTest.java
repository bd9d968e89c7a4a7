package dev.servebench.kernels.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.baseline.KernelPairedPoint;
import dev.servebench.metric.KernelMetric;
import dev.servebench.kernels.results.KernelCompareRecording.Fork;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kernel-compare.json: written and read back unchanged, its figures per round, and what it rejects. */
class KernelCompareRecordingTest {

    static final Map<String, String> DEQUANT = Map.of("backend", "native", "output", "bf16", "layout", "linear",
            "rows", "16384", "k", "8192", "threads", "2");
    /** Bytes one bf16 dequantisation of 16384 × 8192 reads and writes: packed 64 MiB + scales 8 MiB + out 256 MiB. */
    static final double DEQUANT_BYTES = 16384L * 8192 / 2 + 16384L * 8192 / 16 + 16384L * 8192 * 2;

    @TempDir
    Path directory;

    @Test
    void aRecordingIsReadBackAsWritten() throws IOException {
        KernelCompareRecording recording = recording(List.of(
                fork(1, "A", List.of(100_000.0, 90_000.0, 95_000.0)),
                fork(1, "B", List.of(110_000.0, 115_000.0, 112_000.0)),
                failed(2, "B"), fork(2, "A", List.of(97_000.0, 96_000.0, 99_000.0))), 2);
        recording.write(directory);

        assertThat(KernelCompareRecording.read(directory)).isEqualTo(recording);
        assertThat(KernelCompareRecording.read(directory.resolve(KernelCompareRecording.FILE))).isEqualTo(recording);
        assertThat(Files.readString(directory.resolve(KernelCompareRecording.FILE)))
                .contains("\"format\" : \"servebench-kernel-compare/1\"", "\"measurement_iterations\" : 3",
                        "\"iterations\" : [ 100000.0, 90000.0, 95000.0 ]");
    }

    @Test
    void eachRoundsFigureComesFromItsForksMedianTimeAndAFailedForkPairsNothing() {
        KernelCompareRecording recording = recording(List.of(
                fork(1, "A", List.of(100_000.0, 90_000.0, 95_000.0)),
                fork(1, "B", List.of(110_000.0, 115_000.0, 112_000.0)),
                failed(2, "B"), fork(2, "A", List.of(97_000.0, 96_000.0, 99_000.0))), 2);

        KernelPairedPoint point = recording.pairedPoints().getFirst();
        assertThat(point.metric()).isEqualTo(KernelMetric.NVFP4_DEQUANT_GBPS);
        assertThat(point.a().getFirst()).isCloseTo(DEQUANT_BYTES / 95_000e-6 / 1e9, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(point.b().getFirst()).isCloseTo(DEQUANT_BYTES / 112_000e-6 / 1e9, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(point.b().get(1)).isNaN();
        assertThat(recording.completeRounds()).isEqualTo(1);
    }

    @Test
    void malformedRecordingsSayWhatIsWrong() throws IOException {
        assertThatThrownBy(() -> new Fork(1, "C", "MoeBenchmark", Map.of(), "us/op", 1.0, List.of(1.0), "", 1))
                .hasMessageContaining("fork side 'C': expected A or B");
        assertThatThrownBy(() -> new Fork(1, "A", "Nvfp4DequantBenchmark", DEQUANT, "ops/s", 1.0, List.of(1.0), "", 1))
                .hasMessageContaining("score unit 'ops/s'");
        assertThatThrownBy(() -> new Fork(1, "A", "Nvfp4DequantBenchmark", DEQUANT, "us/op", null, List.of(), "", 1))
                .hasMessageContaining("no score or no measurement iterations, and no error");
        assertThatThrownBy(() -> new Fork(1, "A", "FooBenchmark", Map.of(), "us/op", 1.0, List.of(1.0), "", 1))
                .hasMessageContaining("benchmark FooBenchmark: not a kernel benchmark");
        assertThatThrownBy(() -> recording(List.of(fork(3, "A", List.of(1.0))), 2))
                .hasMessageContaining("fork of round 3 outside rounds 1..2");
        Files.writeString(directory.resolve(KernelCompareRecording.FILE), "{\"format\": \"servebench-compare/1\"}");
        assertThatThrownBy(() -> KernelCompareRecording.read(directory))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("format 'servebench-compare/1': expected servebench-kernel-compare/1");
    }

    static KernelCompareRecording recording(List<Fork> forks, int rounds) {
        KernelCompareRecording.Library library = new KernelCompareRecording.Library("/lib/a.so",
                "servebench-c avx2", "ab".repeat(32));
        return new KernelCompareRecording(KernelCompareRecording.FORMAT, Map.of("A", library, "B", library), rounds, 1,
                new KernelCompareRecording.Timing(1, 1, 3, 1), 2, "2 CPUs", List.of(), forks, 12.5);
    }

    static Fork fork(int round, String side, List<Double> microseconds) {
        return new Fork(round, side, "Nvfp4DequantBenchmark", DEQUANT, "us/op",
                microseconds.stream().mapToDouble(Double::doubleValue).average().orElseThrow(), microseconds, "", 9.5);
    }

    static Fork failed(int round, String side) {
        return new Fork(round, side, "Nvfp4DequantBenchmark", DEQUANT, "", null, List.of(), "the fork crashed", 2.0);
    }
}
