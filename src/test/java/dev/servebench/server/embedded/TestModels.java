package dev.servebench.server.embedded;

import dev.servebench.gguf.ModelCache;
import dev.servebench.gguf.ModelSpec;
import dev.servebench.gguf.WeightType;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;

/** One generated model for all engine tests, cached under the build directory across test classes and runs. */
final class TestModels {

    static final Path CACHE = Path.of("target", "test-models");
    static final ModelSpec SPEC = new ModelSpec(7, WeightType.Q4_0);

    private TestModels() {
    }

    static Path q4_0() {
        try {
            return ModelCache.ensure(SPEC, CACHE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static LlamaEngine start(int slots, int contextPerSlot) {
        return LlamaEngine.start(SPEC, CACHE, slots, contextPerSlot);
    }

    /** A prompt of {@code length} normal-piece ids that differs per {@code variant} (no prompt-cache hits). */
    static int[] prompt(int length, int variant) {
        int[] ids = new int[length];
        for (int i = 0; i < length; i++) {
            ids[i] = 300 + Math.floorMod(variant * 131 + i * 7, 1700);
        }
        return ids;
    }

    static GenerationRequest exact(int[] prompt, int maxTokens) {
        return new GenerationRequest(prompt, maxTokens, 0, true, 0.8, Optional.of(1L));
    }
}
