package dev.servebench.kernels.ggml;

import de.kherud.llama.LlamaBridge;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Finds java-llama.cpp's {@code libjllama.so} as a file that {@code SymbolLookup.libraryLookup} can open.
 *
 * <p>The naming deliberately matches the embedded engine's extraction
 * ({@code dev.servebench.target.embedded.NativeLibrary}): {@code <dir>/<first 16 hex digits of the
 * SHA-256>/libjllama.so} under {@code -Dservebench.native.dir} or {@code ~/.cache/servebench/native}. When
 * both run in one JVM they open the same file, and the dynamic loader hands out one handle for one file,
 * so there is a single copy of ggml's global state (fp16 tables, the CPU feature probe) in the process.
 */
final class JllamaFile {

    /** Same property as the embedded engine's extraction, so both use one directory. */
    static final String DIR_PROPERTY = "servebench.native.dir";
    /** Set by the embedded engine to the directory its JNI loader loads from; reused when present. */
    static final String ENGINE_LIB_PATH = "de.kherud.llama.lib.path";

    private JllamaFile() {
    }

    /** The engine's library if it has been placed already, else our extraction into the default directory. */
    static Path locate() {
        String engineDir = System.getProperty(ENGINE_LIB_PATH);
        if (engineDir != null && !engineDir.isBlank()) {
            Path candidate = Path.of(engineDir).resolve(fileName());
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return extract(defaultDirectory());
    }

    static Path defaultDirectory() {
        String configured = System.getProperty(DIR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "servebench", "native");
    }

    static String resourcePath() {
        return LlamaBridge.nativeResourceFolder() + "/" + fileName();
    }

    /**
     * Extracts the class-path library under {@code directory} unless an intact copy is there already.
     * The write goes to a temporary file that is then renamed, so a concurrently starting JVM never
     * opens a half-written library.
     */
    static Path extract(Path directory) {
        String resource = resourcePath();
        byte[] library;
        try (InputStream in = LlamaBridge.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("no bundled llama.cpp library at class-path resource " + resource
                        + " (de.kherud:llama has no build for this platform)");
            }
            library = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading class-path resource " + resource, e);
        }
        Path dir = directory.resolve(sha256Prefix(library));
        Path file = dir.resolve(fileName());
        try {
            if (Files.isRegularFile(file) && Files.size(file) == library.length) {
                return file;
            }
            Files.createDirectories(dir);
            Path temp = Files.createTempFile(dir, "lib", ".tmp");
            try {
                Files.write(temp, library);
                try {
                    Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temp);
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("extracting " + resource + " to " + file, e);
        }
    }

    private static String fileName() {
        return System.mapLibraryName("jllama");
    }

    private static String sha256Prefix(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }
}
