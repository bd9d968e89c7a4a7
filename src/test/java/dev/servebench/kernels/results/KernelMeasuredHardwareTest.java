package dev.servebench.kernels.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.roofline.Sourced;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which kernel figures become the roofline's measured hardware figures. */
class KernelMeasuredHardwareTest {

    private static AllreduceFigure allreduce(String algorithm, int ranks, long bytes, double micros, double busbw) {
        return new AllreduceFigure("native", ranks, bytes, algorithm, "spread", micros, 0.1, 0, busbw, null, null);
    }

    private static final KernelReport REPORT = new KernelReport(List.of(), List.of(), List.of(), List.of(
            allreduce("one-shot", 4, 4096, 6.5, 1.2),
            allreduce("two-shot", 4, 4096, 9.0, 0.9),
            allreduce("two-shot", 4, 4 << 20, 400, 15.5),
            allreduce("one-shot", 4, 4 << 20, 700, 9.0),
            allreduce("one-shot", 2, 1024, 3.0, 0.5)));

    @Test
    void theLatencyIsTheFastestCollectiveAtTheSmallestMessageOfThatRankCount() {
        KernelMeasuredHardware measured = new KernelMeasuredHardware(REPORT, "figures.json");

        Sourced latency = measured.allreduceLatency(4).orElseThrow();
        assertThat(latency.value()).isEqualTo(6.5e-6);
        assertThat(latency.source()).isEqualTo("kernel suite allreduce: 6.50 µs per collective (native one-shot, N=4,"
                + " S=4 KiB; figures.json)");
        assertThat(measured.allreduceLatency(2).orElseThrow().value()).isEqualTo(3e-6);
        assertThat(measured.allreduceLatency(8)).isEmpty();
    }

    @Test
    void theBusBandwidthIsTheHighestOfThatRankCount() {
        KernelMeasuredHardware measured = new KernelMeasuredHardware(REPORT, "figures.json");

        assertThat(measured.busBandwidth(4).orElseThrow().value()).isEqualTo(15.5e9);
        assertThat(measured.busBandwidth(8)).isEmpty();
        assertThat(measured.memoryBandwidth()).isEmpty();
        assertThat(measured.denseFlops()).isEmpty();
        assertThat(measured.origin()).isEqualTo("the kernel results in figures.json have no such figure");
    }

    @Test
    void aFileThatIsNotFiguresJsonIsABadInputNamedByItsPath(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("figures.json"), "[1, 2]");
        assertThatThrownBy(() -> KernelMeasuredHardware.read(dir)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(file + ": expected a JSON object (figures.json), found array")
                .hasMessageEndingWith("servebench kernels figures JMH.json --output DIR writes one");
    }

    @Test
    void memoryBandwidthIsTheLargestBufferNotACacheResidentOne() {
        KernelReport copies = new KernelReport(List.of(new CopyFigure(786_432, 2, 0.005, 0, 273.6, 137),
                new CopyFigure(268_435_456, 1, 12, 0.1, 44.0, 44), new CopyFigure(268_435_456, 2, 9.5, 0.1, 56.2, 28)),
                List.of(), List.of(), List.of());

        Sourced memory = new KernelMeasuredHardware(copies, "f.json").memoryBandwidth().orElseThrow();
        assertThat(memory.value()).isEqualTo(56.2e9);
        assertThat(memory.source()).isEqualTo("kernel suite memcpy, 2·bytes/t: 56.2 GB/s (256 MiB, 2 threads; f.json)");
    }
}
