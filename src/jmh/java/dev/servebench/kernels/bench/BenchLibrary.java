package dev.servebench.kernels.bench;

import dev.servebench.kernels.KernelLibrary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which kernel library the suite benchmarks, and how every JVM of the run learns it.
 *
 * <p>Several JVMs are involved: Maven's, the runner's (exec-maven-plugin's under {@code -Pkernels}, failsafe's
 * under {@code -Pperf}, or {@code java -jar servebench.jar}) and one per JMH fork. A property set on one of
 * them reaches none of the others by itself, and a library that silently falls back to the build's own
 * would make a comparison meaningless; so the runner checks the file, passes its
 * absolute path (forks inherit the working directory, but a relative path in a log is ambiguous) to every
 * fork, and each fork prints the library it actually loaded.
 */
final class BenchLibrary {

    private static final AtomicBoolean ANNOUNCED = new AtomicBoolean();

    private BenchLibrary() {
    }

    /** The library named by {@code value} (the property's value, possibly null or blank), checked to exist. */
    static Optional<Path> configured(String value) {
        if (value == null || value.isBlank()) {
            return Optional.empty();
        }
        Path path = Path.of(value.trim()).toAbsolutePath().normalize();
        if (!Files.isRegularFile(path)) {
            throw new IllegalArgumentException("-D" + KernelLibrary.LIBRARY_PROPERTY + "=" + value
                    + ": no such file (" + path + ")");
        }
        return Optional.of(path);
    }

    /**
     * JVM arguments for every JMH fork: native access, heap, and the library when one was configured. JMH 1.37
     * reads field offsets through {@code sun.misc.Unsafe}; allowing that keeps JDK 25's four-line warning (JEP 471)
     * out of every fork's output.
     */
    static List<String> forkArguments(Optional<Path> library) {
        List<String> arguments = new ArrayList<>(List.of("--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow", "-Xmx2g"));
        library.ifPresent(path -> arguments.add("-D" + KernelLibrary.LIBRARY_PROPERTY + "=" + path));
        return arguments;
    }

    /** In a fork: loads the library the property names (else the build's) and says once which one it is. */
    static KernelLibrary loadInFork() {
        KernelLibrary library = KernelLibrary.load();
        if (ANNOUNCED.compareAndSet(false, true)) {
            System.out.println("# fork " + ProcessHandle.current().pid() + " benchmarks kernel library "
                    + library.path());
        }
        return library;
    }
}
