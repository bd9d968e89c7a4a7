package dev.servebench.telemetry.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.telemetry.TelemetryJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs GpuSampler against a fake nvidia-smi script: a real child process, killed on stop. */
class GpuSamplerTest {

    /** Two H200s; GPU 0 draws 690.5 W in the first sample and 400 W after; GPU 1 reports no power. */
    private static final String TWO_GPUS = """
            i=0
            while :; do
              if [ $i -eq 0 ]; then p=690.50; else p=400.00; fi
              echo "0, NVIDIA H200, GPU-aaaa, 570.133.20, $p, 700.00, 90, 40, 100000, 143771, 60, 1980"
              echo "1, NVIDIA H200, GPU-bbbb, 570.133.20, [N/A], 700.00, [N/A], [N/A], 512, 143771, 35, 345"
              i=$((i+1))
              sleep 0.05
            done
            """;

    @TempDir
    Path dir;

    private GpuTelemetryOptions options(int maxReadings) {
        return new GpuTelemetryOptions(Duration.ofMillis(100), FakeNvidiaSmi.lookupWith(dir), Clock.systemUTC(),
                maxReadings);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Dead, or a zombie waiting for whoever inherited it to reap it: either way no longer running. */
    private static boolean gone(ProcessHandle process) {
        if (!process.isAlive()) {
            return true;
        }
        try {
            return Files.readString(Path.of("/proc/" + process.pid() + "/stat")).contains(") Z ");
        } catch (IOException e) {
            return true;
        }
    }

    @Test
    void samplesEveryGpuSummarisesAndKillsTheChildOnStop() throws Exception {
        FakeNvidiaSmi.install(dir, TWO_GPUS);
        GpuSampler sampler = GpuTelemetry.start(options(3600)).sampler().orElseThrow();
        await("six samples", () -> sampler.samplesSeen() >= 6);
        List<ProcessHandle> children = ProcessHandle.of(sampler.pid()).orElseThrow().descendants().toList();

        GpuTelemetryReport report = sampler.stop();

        assertThat(Files.readString(dir.resolve("args")).strip()).isEqualTo("--query-gpu=" + String.join(",",
                NvidiaSmiCsv.FIELDS) + " --format=csv,noheader,nounits -lms 100");
        assertThat(report.exitCode()).isNull();
        assertThat(report.problems()).isEmpty();
        assertThat(report.unparsedLines()).isZero();
        assertThat(report.intervalMillis()).isEqualTo(100);
        assertThat(report.gpus()).extracting(GpuReport::index).containsExactly(0, 1);
        GpuReport gpu0 = report.gpus().getFirst();
        assertThat(gpu0.name()).isEqualTo("NVIDIA H200");
        assertThat(gpu0.uuid()).isEqualTo("GPU-aaaa");
        assertThat(gpu0.driverVersion()).isEqualTo("570.133.20");
        assertThat(gpu0.summary().maxPowerW()).isEqualTo(690.5);
        assertThat(gpu0.summary().meanPowerW()).isBetween(400.0, 690.0);
        assertThat(gpu0.summary().maxGpuUtilizationPct()).isEqualTo(90.0);
        assertThat(gpu0.summary().maxMemoryUsedMiB()).isEqualTo(100000.0);
        assertThat(gpu0.readings()).hasSize((int) gpu0.summary().samples());
        GpuReport gpu1 = report.gpus().get(1);
        assertThat(gpu1.summary().meanPowerW()).isNull();
        assertThat(gpu1.summary().meanGpuUtilizationPct()).isNull();
        assertThat(gpu1.summary().maxMemoryUsedMiB()).isEqualTo(512.0);
        assertThat(report.lines()).startsWith("GPU 0 NVIDIA H200 (driver 570.133.20): power mean ")
                .contains("GPU 1 NVIDIA H200", "power mean n/a");

        assertThat(ProcessHandle.of(sampler.pid())).isEmpty();
        await("the script's children to end", () -> children.stream().allMatch(GpuSamplerTest::gone));
        assertThat(sampler.stop()).isSameAs(report);
    }

    @Test
    void aLongRunStaysBounded() throws Exception {
        FakeNvidiaSmi.install(dir, """
                while :; do
                  echo "0, NVIDIA RTX PRO 6000 Blackwell Server Edition, GPU-c, 580.65.06, 300.00, 600.00, 50, 20, 1024, 97887, 50, 2430"
                  sleep 0.005
                done
                """);
        try (GpuSampler sampler = GpuTelemetry.start(options(4)).sampler().orElseThrow()) {
            await("forty samples", () -> sampler.samplesSeen() >= 40);
            GpuReport gpu = sampler.stop().gpus().getFirst();

            assertThat(gpu.summary().samples()).isGreaterThanOrEqualTo(40);
            assertThat(gpu.readings()).hasSizeBetween(2, 4);
            assertThat(gpu.keptEvery()).isGreaterThanOrEqualTo(8);
            assertThat(gpu.summary().meanPowerW()).isEqualTo(300.0);
        }
    }

    @Test
    void aFailingNvidiaSmiIsReportedNotThrown() throws Exception {
        FakeNvidiaSmi.install(dir, """
                echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver."
                exit 9
                """);
        GpuSampler sampler = GpuTelemetry.start(options(10)).sampler().orElseThrow();
        await("the fake to exit", () -> !sampler.running());

        GpuTelemetryReport report = sampler.stop();

        assertThat(report.gpus()).isEmpty();
        assertThat(report.exitCode()).isEqualTo(9);
        assertThat(report.unparsedLines()).isEqualTo(1);
        assertThat(report.problems()).anyMatch(p -> p.contains("NVIDIA-SMI has failed"))
                .contains("nvidia-smi ended by itself with exit code 9 before it was stopped");
        assertThat(report.lines()).startsWith("no GPU sample: nvidia-smi line not understood");
    }

    @Test
    void withoutNvidiaSmiTelemetryIsUnavailable() {
        GpuTelemetryStart start = GpuTelemetry.start(options(10).withLookup(ExecutableLookup.onPath(dir.toString())));

        assertThat(start).isEqualTo(new GpuTelemetryStart.Unavailable(
                "nvidia-smi is not on PATH (no NVIDIA driver on this machine?)"));
        assertThat(start.sampler()).isEmpty();
    }

    @Test
    void theReportIsJson() throws Exception {
        FakeNvidiaSmi.install(dir, TWO_GPUS);
        GpuTelemetryReport report;
        try (GpuSampler sampler = GpuTelemetry.start(options(100)).sampler().orElseThrow()) {
            await("two samples", () -> sampler.samplesSeen() >= 2);
            report = sampler.stop();
        }

        JsonNode json = new ObjectMapper().readTree(TelemetryJson.toJson(report));

        assertThat(json.path("interval_millis").asLong()).isEqualTo(100);
        assertThat(json.path("exit_code").isNull()).isTrue();
        assertThat(json.path("started_at").asText()).endsWith("Z");
        JsonNode gpu0 = json.path("gpus").get(0);
        assertThat(gpu0.path("name").asText()).isEqualTo("NVIDIA H200");
        assertThat(gpu0.path("summary").path("max_power_w").asDouble()).isEqualTo(690.5);
        assertThat(gpu0.path("readings").get(0).path("power_draw_w").asDouble()).isEqualTo(690.5);
        assertThat(json.path("gpus").get(1).path("summary").path("mean_power_w").isNull()).isTrue();
    }
}
