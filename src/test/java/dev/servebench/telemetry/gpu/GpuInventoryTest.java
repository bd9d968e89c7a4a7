package dev.servebench.telemetry.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GpuInventoryTest {

    @TempDir
    Path dir;

    @Test
    void parsesOneGpuPerLine() {
        String csv = """
                NVIDIA H200, 570.133.20, 143771 MiB
                NVIDIA H200, 570.133.20, 143771 MiB
                NVIDIA RTX PRO 6000 Blackwell Server Edition, 580.65.06, 97887 MiB

                """;

        assertThat(GpuInventory.parse(csv)).containsExactly(
                new InstalledGpu("NVIDIA H200", "570.133.20", 143771L),
                new InstalledGpu("NVIDIA H200", "570.133.20", 143771L),
                new InstalledGpu("NVIDIA RTX PRO 6000 Blackwell Server Edition", "580.65.06", 97887L));
    }

    @Test
    void missingValuesAreNull() {
        assertThat(GpuInventory.parse("NVIDIA H200, [N/A], [N/A]\n"))
                .containsExactly(new InstalledGpu("NVIDIA H200", null, null));
    }

    @Test
    void malformedLinesAreRejected() {
        assertThatThrownBy(() -> GpuInventory.parse("NVIDIA H200, 570.133.20, 143771 MiB\nNVIDIA H200\n"))
                .hasMessage("nvidia-smi inventory line 2: expected name, driver_version, memory.total: NVIDIA H200");
        assertThatThrownBy(() -> GpuInventory.parse("NVIDIA H200, 570.133.20, 143771\n"))
                .hasMessageContaining("memory.total \"143771\" is not \"<n> MiB\"");
    }

    @Test
    void queriesTheNvidiaSmiOnThePath() throws Exception {
        FakeNvidiaSmi.install(dir, """
                echo "NVIDIA H200, 570.133.20, 143771 MiB"
                echo "NVIDIA H200, 570.133.20, 143771 MiB"
                """);

        assertThat(GpuInventory.query(FakeNvidiaSmi.lookupWith(dir), Duration.ofSeconds(10))).hasSize(2);
        assertThat(Files.readString(dir.resolve("args")).strip())
                .isEqualTo("--query-gpu=name,driver_version,memory.total --format=csv,noheader");
    }

    @Test
    void noNvidiaSmiOrAFailingOneGivesNoGpu() throws Exception {
        assertThat(GpuInventory.query(ExecutableLookup.onPath(dir.toString()), Duration.ofSeconds(10))).isEmpty();

        FakeNvidiaSmi.install(dir, "echo 'NVIDIA-SMI has failed'\nexit 9\n");
        assertThat(GpuInventory.query(FakeNvidiaSmi.lookupWith(dir), Duration.ofSeconds(10))).isEmpty();
    }

    @Test
    void aHangingNvidiaSmiTimesOut() throws Exception {
        FakeNvidiaSmi.install(dir, "exec sleep 30\n");
        long start = System.nanoTime();

        assertThat(GpuInventory.query(FakeNvidiaSmi.lookupWith(dir), Duration.ofMillis(300))).isEmpty();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }
}
