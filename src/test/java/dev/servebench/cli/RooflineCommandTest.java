package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
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
    void anUnknownShapeIsOneLineAndBadInput() {
        StringWriter err = new StringWriter();
        CommandLine cli = Main.commandLine();
        cli.setErr(new PrintWriter(err, true));
        assertThat(cli.execute("roofline", GLM5, "--model", "llama", "--hardware", "rtx-pro-6000-x8-pcie")).isEqualTo(2);
        assertThat(err.toString()).isEqualTo("servebench: --model llama: known models are [glm5-nvfp4-tp8]"
                + System.lineSeparator());
    }
}
