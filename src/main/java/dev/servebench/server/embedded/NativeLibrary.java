package dev.servebench.server.embedded;

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
import java.util.Optional;

/**
 * java-llama.cpp's native library as one content-addressed file, {@code <dir>/<first 16 hex digits of its
 * SHA-256>/libjllama.so}, used by the embedded engine's JNI loader and by the ggml baseline's FFM lookup
 * alike (one file, so the dynamic loader keeps one copy of ggml's global state in a process).
 *
 * <p>Left alone, the JNI loader (1) prints "Extracted 'libjllama.so' to ..." on stdout, (2) deletes every
 * entry of {@code java.io.tmpdir} whose name starts with {@code llama} or {@code jllama}, including other
 * processes' files, and (3) overwrites the shared {@code /tmp/libjllama.so} that concurrently starting
 * JVMs also use. {@link #prepare()} points the loader at our extraction ({@code de.kherud.llama.lib.path})
 * and gives its clean-up a directory of its own ({@code de.kherud.llama.tmpdir}) that holds nothing it
 * would delete.
 */
public final class NativeLibrary {

    /** Overrides where the library is extracted ({@code ~/.cache/servebench/native} by default). */
    public static final String DIR_PROPERTY = "servebench.native.dir";
    /** The directory the JNI loader loads from, once {@link #prepare()} has run. */
    public static final String LIB_PATH = "de.kherud.llama.lib.path";
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
        try {
            Path base = defaultDirectory();
            System.setProperty(LIB_PATH, extract(base).getParent().toString());
            if (System.getProperty(LOADER_TMP) == null) {
                System.setProperty(LOADER_TMP, base.toString());
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "could not extract the native library; leaving it to the loader", e);
        }
    }

    /** {@value #DIR_PROPERTY}, else {@code ~/.cache/servebench/native}. */
    public static Path defaultDirectory() {
        String configured = System.getProperty(DIR_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return Path.of(configured);
        }
        return Path.of(System.getProperty("user.home"), ".cache", "servebench", "native");
    }

    /** Where the library sits on the class path for this platform. */
    public static String resourcePath() {
        return LlamaBridge.nativeResourceFolder() + "/" + fileName();
    }

    public static String fileName() {
        return System.mapLibraryName("jllama");
    }

    /**
     * Extracts the class-path library under {@code directory} unless an intact copy is there already.
     * The write goes to a temporary file that is then renamed, so a concurrently starting JVM never
     * opens a half-written library.
     */
    public static Path extract(Path directory) {
        String resource = resourcePath();
        return extractResource(LlamaBridge.class, resource, fileName(), directory)
                .orElseThrow(() -> new IllegalStateException("no bundled llama.cpp library at class-path resource "
                        + resource + " (de.kherud:llama has no build for this platform)"));
    }

    /**
     * Any native library on the class path as a file {@code <directory>/<first 16 hex digits of its SHA-256>/
     * fileName} (content-addressed: another build's library never overwrites this one's); written to a
     * temporary file and renamed, so a concurrently starting JVM never opens a half-written library. Empty
     * when {@code anchor}'s class loader has no such resource.
     */
    public static Optional<Path> extractResource(Class<?> anchor, String resource, String fileName, Path directory) {
        byte[] library;
        try (InputStream in = anchor.getResourceAsStream(resource)) {
            if (in == null) {
                return Optional.empty();
            }
            library = in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("reading class-path resource " + resource, e);
        }
        Path dir = directory.resolve(sha256Prefix(library));
        Path file = dir.resolve(fileName);
        try {
            if (Files.isRegularFile(file) && Files.size(file) == library.length) {
                return Optional.of(file);
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
            return Optional.of(file);
        } catch (IOException e) {
            throw new UncheckedIOException("extracting " + resource + " to " + file, e);
        }
    }

    private static String sha256Prefix(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every JDK", e);
        }
    }
}
