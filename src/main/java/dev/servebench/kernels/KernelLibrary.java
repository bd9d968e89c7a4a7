package dev.servebench.kernels;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A loaded library implementing the C ABI of {@code native/include/servebench_kernels.h}.
 *
 * <p>Symbols are resolved on first use, so a library from another engine that implements only some
 * kernel families can still be benchmarked on those; a missing one fails with its name. Libraries are
 * loaded into the global arena and stay loaded for the JVM's life (they are few and small).
 *
 * <p>Its restricted FFM calls are its purpose: every servebench JVM runs with native access enabled (the jar's
 * {@code Enable-Native-Access} manifest entry, {@code --enable-native-access} in the test JVMs).
 */
@SuppressWarnings("restricted")
public final class KernelLibrary {

    /** System property naming a library to benchmark instead of the one this build compiles. */
    public static final String LIBRARY_PROPERTY = "servebench.kernels.lib";
    /**
     * Directory the Maven build writes the libraries to, relative to the project root; looked in first, then
     * the jar's own copies ({@link KernelLibraryFiles}).
     */
    public static final Path BUILD_DIRECTORY = Path.of("target", "native");

    private static final Linker LINKER = Linker.nativeLinker();
    private static final ConcurrentHashMap<Path, KernelLibrary> LOADED = new ConcurrentHashMap<>();

    private final Path path;
    private final SymbolLookup symbols;
    private final ConcurrentHashMap<String, MethodHandle> handles = new ConcurrentHashMap<>();

    private KernelLibrary(Path path) {
        this.path = path;
        this.symbols = SymbolLookup.libraryLookup(path, Arena.global());
        int version = abiVersion();
        if (version != 1) {
            throw new IllegalStateException(
                    "kernel library " + path + " implements ABI version " + version + ", expected 1");
        }
    }

    /** The library named by {@value #LIBRARY_PROPERTY}, else this build's runtime-dispatching one. */
    public static KernelLibrary load() {
        String configured = System.getProperty(LIBRARY_PROPERTY);
        if (configured != null && !configured.isBlank()) {
            return load(Path.of(configured));
        }
        return load(Variant.DISPATCH);
    }

    /**
     * One of the variants the Maven build compiles: from {@code target/native} when run in the project, else
     * the jar's copy extracted into the native cache.
     */
    public static KernelLibrary load(Variant variant) {
        return load(KernelLibraryFiles.standard().locate(variant));
    }

    public static KernelLibrary load(Path library) {
        Path absolute = library.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute)) {
            throw new IllegalStateException("kernel library not found: " + absolute
                    + " (built by `./mvnw compile` from native/, or set -D" + LIBRARY_PROPERTY + "=PATH)");
        }
        return LOADED.computeIfAbsent(absolute, KernelLibrary::new);
    }

    public Path path() {
        return path;
    }

    public int abiVersion() {
        try {
            return (int) handle("sb_abi_version", FunctionDescriptor.of(ValueLayout.JAVA_INT)).invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** The implementation's own description, e.g. {@code servebench-c avx512bf16}. */
    public String implementation() {
        try {
            MemorySegment text = (MemorySegment) handle("sb_implementation",
                    FunctionDescriptor.of(ValueLayout.ADDRESS)).invokeExact();
            return text.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * A downcall handle for {@code name}; cached. Kernel calls are long (micro- to milliseconds), so the
     * handles are not marked critical: the JVM may run GC while a kernel runs.
     */
    public MethodHandle handle(String name, FunctionDescriptor descriptor) {
        Objects.requireNonNull(descriptor, "descriptor");
        return handles.computeIfAbsent(name, symbol -> LINKER.downcallHandle(
                symbols.find(symbol).orElseThrow(() -> new UnsupportedOperationException(
                        "kernel library " + path + " does not export " + symbol)),
                descriptor));
    }

    /** Turns a non-zero {@code sb_status} into an exception naming the call. */
    public static void check(int status, String call) {
        switch (status) {
            case 0 -> { }
            case 1 -> throw new IllegalArgumentException(call + ": the native kernel rejected its arguments (SB_ERR_ARGUMENT)");
            case 2 -> throw new UnsupportedOperationException(call + ": not supported by this kernel library (SB_ERR_UNSUPPORTED)");
            default -> throw new IllegalStateException(call + ": native kernel failed with status " + status);
        }
    }

    public static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    /** The three builds of native/: run-time dispatch, capped at AVX2, and portable C. */
    public enum Variant {
        DISPATCH("libservebench_kernels.so"),
        AVX2("libservebench_kernels_avx2.so"),
        SCALAR("libservebench_kernels_scalar.so");

        private final String fileName;

        Variant(String fileName) {
            this.fileName = fileName;
        }

        public String fileName() {
            return fileName;
        }
    }
}
