package dev.servebench.kernels.ggml;

import dev.servebench.server.embedded.NativeLibrary;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds java-llama.cpp's {@code libjllama.so} as a file that {@code SymbolLookup.libraryLookup} can open: the
 * very file the embedded engine loads ({@link NativeLibrary}), so when both run in one JVM the dynamic
 * loader hands out one handle and there is a single copy of ggml's global state (fp16 tables, the CPU
 * feature probe) in the process.
 */
final class JllamaFile {

    private JllamaFile() {
    }

    /** The engine's library if it has been placed already, else our extraction into the default directory. */
    static Path locate() {
        String engineDir = System.getProperty(NativeLibrary.LIB_PATH);
        if (engineDir != null && !engineDir.isBlank()) {
            Path candidate = Path.of(engineDir).resolve(NativeLibrary.fileName());
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        return NativeLibrary.extract(NativeLibrary.defaultDirectory());
    }
}
