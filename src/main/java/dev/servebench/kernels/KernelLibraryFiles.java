package dev.servebench.kernels;

import dev.servebench.server.embedded.NativeLibrary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a build of the kernel library is found as a file that {@code SymbolLookup.libraryLookup} can open:
 * the Maven build's {@code target/native} (development: {@code ./mvnw compile} rebuilds it from native/),
 * else the copy the jar carries as a class-path resource ({@code native/linux-x86_64/…}, put there by the
 * build), extracted on first use into the private native cache ({@code ~/.cache/servebench/native/<hash>/},
 * {@code -Dservebench.native.dir} overrides). So {@code java -jar servebench.jar} runs the kernels from any
 * directory, and a JMH fork finds the very file its runner found.
 *
 * @param buildDirectory  the Maven build's library directory
 * @param resourceFolder  the class-path folder holding this platform's libraries, starting with {@code /}
 * @param extractDirectory where class-path libraries are extracted
 */
record KernelLibraryFiles(Path buildDirectory, String resourceFolder, Path extractDirectory) {

    KernelLibraryFiles {
        Objects.requireNonNull(buildDirectory, "buildDirectory");
        Objects.requireNonNull(extractDirectory, "extractDirectory");
        if (!resourceFolder.startsWith("/") || resourceFolder.endsWith("/")) {
            throw new IllegalArgumentException("resource folder " + resourceFolder
                    + ": expected an absolute class-path folder such as /native/linux-x86_64");
        }
    }

    /** The places a running servebench looks in. */
    static KernelLibraryFiles standard() {
        return new KernelLibraryFiles(KernelLibrary.BUILD_DIRECTORY, "/native/" + platform(),
                NativeLibrary.defaultDirectory());
    }

    /**
     * The platform folder the build writes the libraries into: {@code linux-x86_64} where native/ builds (its
     * SIMD paths are x86); elsewhere a folder no build writes, which the error then names.
     */
    static String platform() {
        String os = System.getProperty("os.name", "unknown").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        String arch = System.getProperty("os.arch", "unknown").toLowerCase(Locale.ROOT);
        return os + "-" + (arch.equals("amd64") ? "x86_64" : arch);
    }

    /** The file of {@code variant}: the build's if it is there, else the jar's, extracted. */
    Path locate(KernelLibrary.Variant variant) {
        Path built = buildDirectory.resolve(variant.fileName()).toAbsolutePath().normalize();
        if (Files.isRegularFile(built)) {
            return built;
        }
        String resource = resourceFolder + "/" + variant.fileName();
        Optional<Path> extracted = NativeLibrary.extractResource(KernelLibraryFiles.class, resource,
                variant.fileName(), extractDirectory);
        return extracted.orElseThrow(() -> new IllegalStateException("kernel library " + variant.fileName()
                + " not found; tried " + built + " (the Maven build's, no such file) and class-path resource "
                + resource + " (not in this jar or class path: the build puts it there on linux-x86_64 only);"
                + " build it with `./mvnw compile` (native/) or name a library with -D"
                + KernelLibrary.LIBRARY_PROPERTY + "=PATH"));
    }
}
