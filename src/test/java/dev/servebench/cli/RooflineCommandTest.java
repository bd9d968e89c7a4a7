package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.kernels.results.CopyFigure;
import dev.servebench.kernels.results.KernelReport;
import dev.servebench.kernels.results.MoeFigure;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RooflineCommandTest {

    private static final String GLM5 = "fixtures/specs/glm5-nvfp4-8x-rtxpro6000.yaml";

    @Test
    void theGlm5SpecsLoadPointsGetTheirBoundAndLimitingTermWithoutAServer() {
        StringWriter out = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        int exit = cli.execute("roofline", GLM5, "--model", "glm5-nvfp4-tp8", "--hardware", "rtx-pro-6000-x8-pcie");
        assertThat(exit).isZero();
        // Single stream: 156 allreduces of ~13 µs bind before memory does; at 256 all experts are read.
        assertThat(out.toString()).contains("TP=8, context 319 tokens")
                .containsPattern("\\| 1 \\| 480 \\| .* \\| communication \\|")
                .containsPattern("\\| 256 \\| \\d+ \\| .* \\| memory \\|")
                .contains("| 64 |", "| 512 |", "| 1024 |");
    }

    @Test
    void theSpecsOwnSectionsGiveTheSameBoundsWithTheirSources() {
        StringWriter out = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        assertThat(cli.execute("roofline", GLM5)).isZero();
        assertThat(out.toString()).contains("GLM-5 NVFP4 on 8x RTX PRO 6000", "TP=8, context 319 tokens")
                .containsPattern("\\| 1 \\| 480 \\| .* \\| communication \\|")
                .contains("memory bandwidth 1792 GB/s per GPU: NVIDIA RTX PRO 6000 Blackwell data sheet",
                        "allreduce latency 13.0 µs: issue 15");
    }

    /** A dense 1B bf16 model on one GPU whose memcpy the kernel suite measured at 20 GB/s. */
    @Test
    void measuredFiguresComeFromTheKernelRunsFigures(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("tiny.yaml");
        Files.writeString(spec, """
                name: tiny
                workload: {dataset: random, input_len: 128, output_len: 1, range_ratio: 1.0}
                sweep: {concurrency: [1]}
                model:
                  name: tiny dense
                  source: hand-made
                  total_params_b: 1
                  layers: 4
                  hidden_size: 512
                  weight_format: bf16
                  attention: {heads: 8, kv: gqa, kv_heads: 8, head_dim: 64}
                hardware:
                  name: this machine
                  gpus: 1
                  memory_bandwidth_gb_s: measured
                  dense_tflops: {bf16: measured}
                """);
        KernelReport report = new KernelReport(List.of(new CopyFigure(1 << 30, 4, 100, 1, 20.0, 2.5),
                new CopyFigure(1 << 20, 1, 0.2, 0.01, 10.0, 5.0)), List.of(),
                List.of(new MoeFigure("native", "512x64x8x2", 16, 4, 1, 0.1, 100.0, 1.0, null, null, null, null),
                        new MoeFigure("java", "512x64x8x2", 16, 4, 1, 0.1, 500.0, 1.0, null, null, null, null)),
                List.of());
        Path figures = dir.resolve("kernels");
        Files.createDirectories(figures);
        new ObjectMapper().writeValue(figures.resolve("figures.json").toFile(), report);

        StringWriter out = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setOut(new PrintWriter(out, true));
        assertThat(cli.execute("roofline", spec.toString(), "--kernels", figures.toString())).isZero();
        // context 128: weights 2e9 B + KV 128 × (2 × 4 × 8 × 64 × 2 B) = 2.001 GB at 20 GB/s = 100.05 ms, far
        // above 2 GFLOP at the native kernel's 100 GFLOP/s = 20 ms (the Java reference's 500 is not ours).
        assertThat(out.toString()).contains("context 128 tokens", "| 1 | 9.99 | 8.33 | 100 | 100 | 20.0 | 0 | memory |",
                "memory bandwidth 20.0 GB/s per GPU: kernel suite memcpy, 2·bytes/t: 20.0 GB/s (1024 MiB, 4 threads;",
                "BF16 dense 0.100 TFLOP/s per GPU: kernel suite MoE W4A16 GEMM");

        StringWriter err = new StringWriter();
        CommandLine without = Main.commandLine();
        without.setErr(new PrintWriter(err, true));
        assertThat(without.execute("roofline", spec.toString())).isEqualTo(2);
        assertThat(err.toString()).startsWith("servebench: hardware this machine: memory bandwidth (memcpy), BF16"
                + " dense FLOP/s (MoE GEMM) are to be measured, but this run has no kernel-suite results; give"
                + " --kernels FIGURES");
    }

    @Test
    void aSpecWithoutModelAndHardwareNeedsTheFlags(@TempDir Path dir) throws Exception {
        Path spec = Files.writeString(dir.resolve("plain.yaml"), """
                name: plain
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep: {concurrency: [1]}
                """);
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute("roofline", spec.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("has no model: and hardware: sections (docs/specs.md); add them or"
                + " give --model [glm5-nvfp4-tp8] and --hardware [rtx-pro-6000-x8-pcie]");
    }

    @Test
    void anUnknownShapeIsOneLineAndBadInput() {
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute("roofline", GLM5, "--model", "llama", "--hardware", "rtx-pro-6000-x8-pcie")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("servebench: --model llama: known models are [glm5-nvfp4-tp8]"
                + System.lineSeparator());
    }
}
