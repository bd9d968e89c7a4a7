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
     * The path of {@code spec}'s file in {@code cacheDir}, generating it first when absent. The file is
     * written under a temporary name and renamed into place, so a reader (or a concurrent process) never
     * sees a partial model; an existing file is never rewritten.
     */
    public static Path ensure(ModelSpec spec, Path cacheDir) throws IOException {
        Path target = cacheDir.resolve(spec.fileName());
        if (Files.isRegularFile(target)) {
            return target;
        }
        Files.createDirectories(cacheDir);
        Path temp = Files.createTempFile(cacheDir, spec.fileName() + ".", ".tmp");
        try {
            TinyMoeModel.write(spec, temp);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
        return target;
    }

    public static Path ensure(ModelSpec spec) throws IOException {
        return ensure(spec, defaultDir());
    }
}
