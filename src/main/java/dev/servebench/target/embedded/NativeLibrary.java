package dev.servebench.target.embedded;

import de.kherud.llama.LlamaBridge;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Puts java-llama.cpp's native library where its loader finds it without extracting it itself.
 *
 * <p>Left alone, the loader (1) prints "Extracted 'libjllama.so' to ..." on stdout, (2) deletes every
 * entry of {@code java.io.tmpdir} whose name starts with {@code llama} or {@code jllama}, including other
 * processes' files, and (3) overwrites the shared {@code /tmp/libjllama.so} that concurrently starting
 * JVMs also use. We extract the library once into a content-addressed directory and point the loader
 * at it ({@code de.kherud.llama.lib.path}), and give its clean-up a directory of its own
 * ({@code de.kherud.llama.tmpdir}) that holds nothing it would delete.
 */
final class NativeLibrary {

    /** Overrides where the library is extracted ({@code ~/.cache/servebench/native} by default). */
    static final String DIR_PROPERTY = "servebench.native.dir";
    private static final String LIB_PATH = "de.kherud.llama.lib.path";
    private static final String LOADER_TMP = "de.kherud.llama.tmpdir";
    private static final System.Logger LOG = System.getLogger(NativeLibrary.class.getName());

    private static boolean prepared;

    private NativeLibrary() {
    }

    /** Idempotent; on any failure the library's own loader runs unchanged. */
    static synchronized void prepare() {
        if (prepared || System.getProperty(LIB_PATH) != null) {
            prepared = true;
            return;
        }
        prepared = true;
        String resource = LlamaBridge.nativeResourceFolder() + "/" + System.mapLibraryName("jllama");
        try (InputStream in = LlamaBridge.class.getResourceAsStream(resource)) {
            if (in == null) {
                LOG.log(System.Logger.Level.DEBUG, "no bundled native library at {0}; leaving it to the loader", resource);
                return;
            }
            byte[] library = in.readAllBytes();
            Path base = baseDir();
            Path dir = base.resolve(sha256(library));
            Path file = dir.resolve(System.mapLibraryName("jllama"));
            if (!Files.isRegularFile(file) || Files.size(file) != library.length) {
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
            }
            System.setProperty(LIB_PATH, dir.toString());
            if (System.getProperty(LOADER_TMP) == null) {
                System.setProperty(LOADER_TMP, base.toString());
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "could not extract the native library; leaving it to the loader", e);
        }
    }

    private static Path baseDir() {
        String configured = System.getProperty(DIR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "servebench", "native");
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }
}
