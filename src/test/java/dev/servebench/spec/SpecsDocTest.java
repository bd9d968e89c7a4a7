package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The example in docs/specs.md is a valid spec. */
class SpecsDocTest {

    @Test
    void documentedExampleParses() throws IOException {
        String doc = Files.readString(Path.of("docs", "specs.md"));
        int start = doc.indexOf("```yaml\n") + "```yaml\n".length();
        String example = doc.substring(start, doc.indexOf("```", start));

        PerformanceSpec spec = SpecReader.parse(example, "docs/specs.md");

        assertThat(spec.name()).isEqualTo("glm5-nvfp4-8x-rtxpro6000");
        assertThat(spec.expectations()).hasSize(4);
        assertThat(spec.sweep().points()).hasSize(5);
    }
}
