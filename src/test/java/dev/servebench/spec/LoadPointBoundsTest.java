package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.PointBound;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class LoadPointBoundsTest {

    @Test
    void theGlm5PointsAreBoundedAtTheirConcurrencyAndMeanDecodeContext() throws IOException {
        PerformanceSpec spec = SpecReader.read(Path.of("fixtures/specs/glm5-nvfp4-8x-rtxpro6000.yaml"));

        PointBound bound = LoadPointBounds.at(spec, LoadPointKey.concurrency(256), MeasuredHardware.NONE);

        // 256 + (128 − 1) / 2 = 319.5, rounded down: a smaller context only raises the bound.
        assertThat(bound).isInstanceOfSatisfying(PointBound.Bounded.class, b -> {
            assertThat(b.decode().batch()).isEqualTo(256);
            assertThat(b.decode().context()).isEqualTo(319);
        });
    }

    @Test
    void meanLengthsOfRandomPromptsUniformBetweenRatioAndOne() {
        // input uniform in [64, 128] → 96; output in [16, 32] → 24; 96 + 23 / 2 = 107.5 → 107
        assertThat(LoadPointBounds.decodeContext(new RandomDatasetSpec(128, 32, 0.5))).isEqualTo(107);
        assertThat(LoadPointBounds.decodeContext(new RandomDatasetSpec(256, 1, 1.0))).isEqualTo(256);
    }

    @Test
    void withoutSectionsOrCapThereIsNoBoundAndTheReasonSaysWhy() {
        PerformanceSpec plain = SpecReader.parse("""
                name: plain
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep: {request_rate: [4]}
                """, "plain.yaml");
        assertThat(LoadPointBounds.at(plain, plain.sweep().points().getFirst(), MeasuredHardware.NONE))
                .isEqualTo(new PointBound.Unbounded("spec plain has no model: and hardware: sections"));
    }

    @Test
    void aPointWithoutCapOrAShareGptSpecHasNoBoundEvenWithTheSections() throws IOException {
        String sections = java.nio.file.Files.readString(Path.of("fixtures/specs/glm5-nvfp4-8x-rtxpro6000.yaml"));
        sections = sections.substring(sections.indexOf("\nmodel:"), sections.indexOf("\nwarmup:"));
        PerformanceSpec rated = SpecReader.parse("""
                name: rated
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep: {request_rate: [4]}
                """ + sections, "rated.yaml");

        assertThat(LoadPointBounds.at(rated, rated.sweep().points().getFirst(), MeasuredHardware.NONE))
                .isEqualTo(new PointBound.Unbounded("rate=4 has no concurrency cap: the batch a decode step runs is"
                        + " not fixed"));
    }
}
