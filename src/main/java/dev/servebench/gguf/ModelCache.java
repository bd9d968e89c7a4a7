package dev.servebench.gguf;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** Generated models on disk, keyed by everything that determines their bytes. */
public final class ModelCache {

    /** System property that overrides {@link #defaultDir()}. */
    public static final String DIR_PROPERTY = "servebench.model.cache";
    /** Environment variable that overrides {@link #defaultDir()} when the property is unset. */
    public static final String DIR_ENV = "SERVEBENCH_MODEL_CACHE";

    private ModelCache() {
    }

    /** {@code -Dservebench.model.cache}, else {@code $SERVEBENCH_MODEL_CACHE}, else {@code ~/.cache/servebench/models}. */
    public static Path defaultDir() {
        String property = System.getProperty(DIR_PROPERTY);
        if (property != null && !property.isBlank()) {
            return Path.of(property);
        }
        String env = System.getenv(DIR_ENV);
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "servebench", "models");
    }

    /**
     * The path of {@code spec}'s file in {@code cacheDir}, generating it first when absent, with its
     * HuggingFace tokenizer ({@link #tokenizerFile}) beside it. Each file is written under a temporary name
     * and renamed into place, so a reader (or a concurrent process) never sees a partial file; an existing
     * file is never rewritten.
     */
    public static Path ensure(ModelSpec spec, Path cacheDir) throws IOException {
        Path target = cacheDir.resolve(spec.fileName());
        Files.createDirectories(cacheDir);
        if (!Files.isRegularFile(target)) {
            writeAtomically(target, temp -> TinyMoeModel.write(spec, temp));
        }
        Path tokenizer = tokenizerFile(target);
        if (!Files.isRegularFile(tokenizer)) {
            // Models cached by an older servebench have none yet; the vocabulary depends on the size only.
            writeAtomically(tokenizer, temp -> TokenizerJson.write(SpmVocabulary.build(spec.dims().vocabSize()), temp));
        }
        return target;
    }

    /**
     * The HuggingFace {@code tokenizer.json} beside a generated model: {@code tiny-moe-…-f16.gguf} →
     * {@code tiny-moe-…-f16.tokenizer.json}. It counts tokens as the engine does ({@link TokenizerJson}).
     */
    public static Path tokenizerFile(Path model) {
        String name = model.getFileName().toString();
        String base = name.endsWith(".gguf") ? name.substring(0, name.length() - ".gguf".length()) : name;
        return model.resolveSibling(base + ".tokenizer.json");
    }

    @FunctionalInterface
    private interface FileWriter {
        void write(Path temp) throws IOException;
    }

    private static void writeAtomically(Path target, FileWriter writer) throws IOException {
        Path temp = Files.createTempFile(target.getParent(), target.getFileName() + ".", ".tmp");
        try {
            writer.write(temp);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    public static Path ensure(ModelSpec spec) throws IOException {
        return ensure(spec, defaultDir());
    }
}
