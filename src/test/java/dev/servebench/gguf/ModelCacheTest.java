package dev.servebench.gguf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ModelCacheTest {

    @TempDir
    Path dir;

    @Test
    void generatesOnceUnderAHashedNameAndReusesTheFile() throws Exception {
        ModelSpec spec = new ModelSpec(3, WeightType.Q4_0);

        Path first = ModelCache.ensure(spec, dir.resolve("cache"));
        FileTime old = FileTime.from(Instant.parse("2001-01-01T00:00:00Z"));
        Files.setLastModifiedTime(first, old);
        Path second = ModelCache.ensure(spec, dir.resolve("cache"));

        assertThat(second).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(second)).as("not rewritten").isEqualTo(old);
        assertThat(first.getFileName().toString()).matches("tiny-moe-[0-9a-f]{12}-q4_0\\.gguf");
        try (Stream<Path> files = Files.list(dir.resolve("cache"))) {
            assertThat(files).as("the model and its tokenizer, no temporary files left")
                    .containsExactlyInAnyOrder(first, ModelCache.tokenizerFile(first));
        }
    }

    @Test
    void writesTheTokenizerBesideAModelCachedWithoutOne() throws Exception {
        ModelSpec spec = new ModelSpec(3, WeightType.Q4_0);
        Path model = ModelCache.ensure(spec, dir);
        Path tokenizer = ModelCache.tokenizerFile(model);
        String written = Files.readString(tokenizer);
        FileTime old = FileTime.from(Instant.parse("2001-01-01T00:00:00Z"));
        Files.setLastModifiedTime(model, old);
        Files.delete(tokenizer);

        ModelCache.ensure(spec, dir);

        assertThat(tokenizer.getFileName().toString()).matches("tiny-moe-[0-9a-f]{12}-q4_0\\.tokenizer\\.json");
        assertThat(Files.readString(tokenizer)).isEqualTo(written);
        assertThat(Files.getLastModifiedTime(model)).as("the model is not rewritten").isEqualTo(old);
    }

    @Test
    void everyParameterChangesTheName() {
        ModelSpec base = new ModelSpec(3, WeightType.Q4_0);
        ModelDims otherDims = new ModelDims(2048, 256, 4, 512, 4, 8, 2, 4096);

        assertThat(base.fileName()).isEqualTo(new ModelSpec(3, WeightType.Q4_0).fileName())
                .isNotEqualTo(new ModelSpec(4, WeightType.Q4_0).fileName())
                .isNotEqualTo(new ModelSpec(3, WeightType.Q4_0, otherDims).fileName());
        assertThat(new ModelSpec(3, WeightType.F16).fileName()).endsWith("-f16.gguf");
    }

    @Test
    void defaultDirCanBeOverriddenByAProperty() {
        String previous = System.getProperty(ModelCache.DIR_PROPERTY);
        try {
            System.setProperty(ModelCache.DIR_PROPERTY, dir.toString());
            assertThat(ModelCache.defaultDir()).isEqualTo(dir);
            System.clearProperty(ModelCache.DIR_PROPERTY);
            assertThat(ModelCache.defaultDir().toString()).endsWith(".cache/servebench/models");
        } finally {
            if (previous != null) {
                System.setProperty(ModelCache.DIR_PROPERTY, previous);
            }
        }
    }

    @Test
    void dimsNameTheFieldAndValueThatAreWrong() {
        assertThatThrownBy(() -> new ModelDims(2048, 250, 4, 512, 4, 8, 2, 2048))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("embedding (250)");
        assertThatThrownBy(() -> new ModelDims(2048, 256, 4, 512, 4, 2, 3, 2048))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expertsUsed (3)");
        assertThatThrownBy(() -> WeightType.parse("q8_0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("weights (q8_0)");
    }
}
