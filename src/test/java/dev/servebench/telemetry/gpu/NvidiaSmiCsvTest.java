package dev.servebench.telemetry.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class NvidiaSmiCsvTest {

    static final Instant T = Instant.parse("2026-12-02T15:20:00Z");

    /** Lines in the shape nvidia-smi prints them with {@code --format=csv,noheader,nounits}. */
    static final String H200 =
            "0, NVIDIA H200, GPU-3f1c9e2a-7b4d-4c1e-9a55-0d2b6c8e1f47, 570.133.20, 612.45, 700.00, 98, 61, 131072, 143771, 67, 1980";
    static final String RTX_PRO_6000 = "1, NVIDIA RTX PRO 6000 Blackwell Server Edition,"
            + " GPU-8e0d5b7c-2a19-4f3e-b6d1-93c4e7a0f2b8, 580.65.06, 298.12, 600.00, 45, 20, 90112, 97887, 55, 2430";
    static final String IDLE_WITHOUT_POWER =
            "2, NVIDIA H200, GPU-0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d, 570.133.20, [N/A], [N/A], 0, 0, 0, 143771, 31, 345";
    static final String WORKSTATION_NOT_SUPPORTED = "0, NVIDIA RTX PRO 6000 Blackwell Workstation Edition,"
            + " GPU-11111111-2222-3333-4444-555555555555, 580.65.06, 85.20, 600.00, [Not Supported], [Not Supported],"
            + " 1024, 97887, 40, 180";

    @Test
    void parsesAnH200Line() {
        GpuSample s = NvidiaSmiCsv.parse(H200, T);

        assertThat(s).isEqualTo(new GpuSample(T, 0, "NVIDIA H200", "GPU-3f1c9e2a-7b4d-4c1e-9a55-0d2b6c8e1f47",
                "570.133.20", 612.45, 700.0, 98.0, 61.0, 131072.0, 143771.0, 67.0, 1980.0));
    }

    @Test
    void parsesAnRtxProLineWithSpacesInTheName() {
        GpuSample s = NvidiaSmiCsv.parse(RTX_PRO_6000, T);

        assertThat(s.index()).isEqualTo(1);
        assertThat(s.name()).isEqualTo("NVIDIA RTX PRO 6000 Blackwell Server Edition");
        assertThat(s.driverVersion()).isEqualTo("580.65.06");
        assertThat(s.powerLimitW()).isEqualTo(600.0);
        assertThat(s.memoryTotalMiB()).isEqualTo(97887.0);
        assertThat(s.smClockMHz()).isEqualTo(2430.0);
    }

    @Test
    void bracketedReasonsAreMissingValues() {
        GpuSample idle = NvidiaSmiCsv.parse(IDLE_WITHOUT_POWER, T);
        assertThat(idle.powerDrawW()).isNull();
        assertThat(idle.powerLimitW()).isNull();
        assertThat(idle.gpuUtilizationPct()).isZero();

        GpuSample workstation = NvidiaSmiCsv.parse(WORKSTATION_NOT_SUPPORTED, T);
        assertThat(workstation.gpuUtilizationPct()).isNull();
        assertThat(workstation.memoryUtilizationPct()).isNull();
        assertThat(workstation.powerDrawW()).isEqualTo(85.2);

        GpuSample noIdentity = NvidiaSmiCsv.parse("3, NVIDIA H200, [N/A], [Unknown Error], 1, 2, 3, 4, 5, 6, 7, 8", T);
        assertThat(noIdentity.uuid()).isNull();
        assertThat(noIdentity.driverVersion()).isNull();
    }

    @Test
    void aCommaInTheNameStaysInTheName() {
        GpuSample s = NvidiaSmiCsv.parse("4, Acme, Inc. Accelerator, GPU-x, 1.0, 1, 2, 3, 4, 5, 6, 7, 8", T);

        assertThat(s.name()).isEqualTo("Acme, Inc. Accelerator");
        assertThat(s.uuid()).isEqualTo("GPU-x");
        assertThat(s.smClockMHz()).isEqualTo(8.0);
    }

    @Test
    void malformedLinesSayWhatIsWrong() {
        assertThatThrownBy(() -> NvidiaSmiCsv.parse("NVIDIA-SMI has failed because it couldn't communicate with the"
                + " NVIDIA driver. Make sure that the latest NVIDIA driver is installed and running.", T))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("nvidia-smi line not understood: expected 12 comma-separated fields (index,name,")
                .hasMessageContaining("got 1: NVIDIA-SMI has failed");
        assertThatThrownBy(() -> NvidiaSmiCsv.parse(H200.replace("612.45", "612.45 W"), T))
                .hasMessageContaining("power.draw \"612.45 W\" is neither a number nor a bracketed reason");
        assertThatThrownBy(() -> NvidiaSmiCsv.parse(H200.replaceFirst("^0", "GPU0"), T))
                .hasMessageContaining("index \"GPU0\" is not a GPU index");
        assertThatThrownBy(() -> NvidiaSmiCsv.parse(H200.replace("98,", "NaN,"), T))
                .hasMessageContaining("utilization.gpu \"NaN\"");
    }

    @Test
    void theSamplingCommandQueriesTheParsedFields() {
        assertThat(NvidiaSmiCsv.samplingCommand(Path.of("/usr/bin/nvidia-smi"), Duration.ofMillis(500)))
                .containsExactly("/usr/bin/nvidia-smi",
                        "--query-gpu=index,name,uuid,driver_version,power.draw,power.limit,utilization.gpu,"
                                + "utilization.memory,memory.used,memory.total,temperature.gpu,clocks.sm",
                        "--format=csv,noheader,nounits", "-lms", "500");
    }
}
