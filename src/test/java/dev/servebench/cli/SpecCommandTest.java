package dev.servebench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code servebench spec check}: every error of a spec, once, and exit 2; a valid spec summarised. */
class SpecCommandTest {

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();
    private final CommandLine cli = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));

    @Test
    void anInvalidSpecPrintsAllItsErrorsAndExits2() {
        String bad = "src/test/resources/dev/servebench/spec/bad.yaml";

        assertThat(cli.execute("spec", "check", bad)).isEqualTo(Main.BAD_INPUT);

        assertThat(err.toString()).isEqualTo(bad + ": 2 errors\n"
                + bad + ":12:5: expect[0]: unknown metric 'output_tokens_per_sec' (did you mean 'output_throughput'?);"
                + " metric ids are listed in docs/metrics.md\n"
                + bad + ":13:22: expect[1]: unit 's' does not match p99_ttft_ms, which is in ms (write ms: 2 s is 2000 ms; values are"
                + " not converted)\n");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aValidSpecIsSummarised() {
        assertThat(cli.execute("spec", "check", "fixtures/specs/embedded-default.yaml")).isZero();

        assertThat(out.toString()).startsWith("fixtures/specs/embedded-default.yaml: spec 'embedded-default' is valid:"
                + " 3 load points, ");
        assertThat(err.toString()).isEmpty();
    }

    @Test
    void aMissingFileIsBadInput() {
        assertThat(cli.execute("spec", "check", "no/such/spec.yaml")).isEqualTo(Main.BAD_INPUT);

        assertThat(err.toString()).isEqualTo("no/such/spec.yaml: no such file\n");
    }
}
