package dev.servebench.kernels.ggml;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.servebench.kernels.KernelLibrary;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;

/**
 * llama.cpp's ggml, called directly through FFM from the {@code libjllama.so} that de.kherud:llama 4.2.0
 * ships (llama.cpp b4916, a portable AVX2 build with OpenMP that exports every {@code ggml_*} symbol).
 *
 * <p>The raw calls ({@link GgmlCalls}) are package-private: ggml aborts the whole process on a bad argument
 * ({@code GGML_ASSERT}), so only {@link GgmlExperts} and {@link GgmlMoe}, which check everything in Java
 * first, may reach them. The library is loaded into the global arena and stays for the JVM's life.
 *
 * <p>Its restricted FFM calls are its purpose: every servebench JVM runs with native access enabled (the jar's
 * {@code Enable-Native-Access} manifest entry, {@code --enable-native-access} in the test JVMs).
 */
@SuppressWarnings("restricted")
public final class GgmlLibrary {

    /** The only build whose struct layouts ({@link GgmlStructs}) these bindings are pinned to. */
    public static final int SUPPORTED_BUILD = 4916;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final ConcurrentHashMap<Path, GgmlLibrary> LOADED = new ConcurrentHashMap<>();

    private final Path path;
    private final SymbolLookup symbols;
    private final int buildNumber;
    private final String commit;
    private final MethodHandle hasAvx2;
    private final MethodHandle hasAvx512;
    private final GgmlCalls calls;

    private GgmlLibrary(Path path) {
        this.path = path;
        this.symbols = SymbolLookup.libraryLookup(path, Arena.global());
        this.buildNumber = symbols.find("LLAMA_BUILD_NUMBER")
                .map(s -> s.reinterpret(4).get(JAVA_INT, 0))
                .orElseThrow(() -> new IllegalStateException(path + " exports no LLAMA_BUILD_NUMBER; not a llama.cpp build"));
        if (buildNumber != SUPPORTED_BUILD) {
            throw new IllegalStateException(path + " is llama.cpp b" + buildNumber + "; the ggml struct layouts here are "
                    + "pinned to b" + SUPPORTED_BUILD + " (de.kherud:llama 4.2.0)");
        }
        this.commit = symbols.find("LLAMA_COMMIT")
                .map(s -> s.reinterpret(ADDRESS.byteSize()).get(ADDRESS, 0).reinterpret(64).getString(0))
                .orElse("unknown");
        this.hasAvx2 = handle("ggml_cpu_has_avx2", FunctionDescriptor.of(JAVA_INT));
        this.hasAvx512 = handle("ggml_cpu_has_avx512", FunctionDescriptor.of(JAVA_INT));
        this.calls = new GgmlCalls(this);
        try {
            // Fills the CPU backend's lookup tables; idempotent, and needed before the first graph runs.
            handle("ggml_cpu_init", FunctionDescriptor.ofVoid()).invokeExact();
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** The engine's copy of {@code libjllama.so} if it has one, else ours extracted under the same name. */
    public static GgmlLibrary load() {
        return load(JllamaFile.locate());
    }

    public static GgmlLibrary load(Path library) {
        Path absolute = library.toAbsolutePath().normalize();
        if (!Files.isRegularFile(absolute)) {
            throw new IllegalStateException("llama.cpp library not found: " + absolute);
        }
        return LOADED.computeIfAbsent(absolute, GgmlLibrary::new);
    }

    public Path path() {
        return path;
    }

    /** {@code LLAMA_BUILD_NUMBER}, always {@value #SUPPORTED_BUILD} for a loaded library. */
    public int buildNumber() {
        return buildNumber;
    }

    /** {@code LLAMA_COMMIT}, the short git hash of the build. */
    public String commit() {
        return commit;
    }

    /** Whether ggml was compiled with AVX2 kernels (a compile-time fact of the build, not of this CPU). */
    public boolean hasAvx2() {
        return callInt(hasAvx2) != 0;
    }

    /** Whether ggml was compiled with AVX-512 kernels; 0 for the portable build even on AVX-512 CPUs. */
    public boolean hasAvx512() {
        return callInt(hasAvx512) != 0;
    }

    /** One line for benchmark metadata, e.g. {@code llama.cpp b4916 (c6af2161) ggml avx2=1 avx512=0}. */
    public String fingerprint() {
        return "llama.cpp b" + buildNumber + " (" + commit + ") ggml avx2=" + (hasAvx2() ? 1 : 0)
                + " avx512=" + (hasAvx512() ? 1 : 0);
    }

    /** The typed ggml calls; package-private because they check nothing (see the class comment). */
    GgmlCalls calls() {
        return calls;
    }

    /** A downcall for a symbol of this library, for the few callers with calls of their own. */
    MethodHandle handle(String name, FunctionDescriptor descriptor) {
        return downcall(symbols.find(name).orElseThrow(() -> new UnsupportedOperationException(
                path + " does not export " + name)), descriptor);
    }

    /** A downcall for a function pointer obtained from the library (e.g. a backend proc address). */
    static MethodHandle downcall(MemorySegment function, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(function, descriptor);
    }

    private static int callInt(MethodHandle handle) {
        try {
            return (int) handle.invokeExact();
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

}
