package dev.servebench.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.telemetry.gpu.NvidiaSmiCsv;
import dev.servebench.telemetry.counters.CounterKind;
import dev.servebench.telemetry.counters.ServerFlavor;
import dev.servebench.telemetry.counters.TokenCrossCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/telemetry.md names what the code reads; these keep the two in step. */
class TelemetryDocTest {

    private static final Path DOC = Path.of("docs", "telemetry.md");

    @Test
    void everyCounterNameIsDocumented() throws Exception {
        String doc = Files.readString(DOC);
        for (ServerFlavor flavor : ServerFlavor.values()) {
            for (CounterKind kind : CounterKind.values()) {
                for (String name : flavor.counterNames(kind)) {
                    assertThat(doc).as("%s %s", flavor, kind).contains("`" + name + "`");
                }
            }
        }
    }

    @Test
    void theSamplingQueryAndDefaultToleranceAreDocumented() throws Exception {
        String doc = Files.readString(DOC);
        assertThat(doc).contains("--query-gpu=" + String.join(",", NvidiaSmiCsv.FIELDS)
                + " --format=csv,noheader,nounits -lms <interval>");
        assertThat(TokenCrossCheck.DEFAULT_TOLERANCE).isEqualTo(0.01);
        assertThat(doc).contains("### Tolerance: ±1% by default");
    }
}
