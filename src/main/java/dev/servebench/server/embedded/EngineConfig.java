package dev.servebench.server.embedded;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * How to start a {@link LlamaEngine}.
 *
 * @param model            GGUF file (SPM vocabulary)
 * @param modelName        name to report; empty = the file's {@code general.name}
 * @param slots            sequences decoded together; requests beyond wait in a queue
 * @param contextPerSlot   prompt (incl. BOS) + generated tokens one request may use
 * @param threads          CPU threads for decoding and for prompt batches
 * @param verboseNativeLog let llama.cpp print its logs (on stdout); off keeps the console clean
 */
public record EngineConfig(Path model, Optional<String> modelName, int slots, int contextPerSlot, int threads,
                           boolean verboseNativeLog) {

    public static final int DEFAULT_THREADS = 2;

    public EngineConfig {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(modelName, "modelName");
        if (slots < 1 || slots > 1024) {
            throw new IllegalArgumentException("slots (" + slots + ") must be in [1, 1024]");
        }
        if (contextPerSlot < 2) {
            throw new IllegalArgumentException("contextPerSlot (" + contextPerSlot + ") must be >= 2");
        }
        if ((long) slots * contextPerSlot > Integer.MAX_VALUE / 2) {
            throw new IllegalArgumentException("slots × contextPerSlot (" + (long) slots * contextPerSlot + ") is too large");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads (" + threads + ") must be >= 1");
        }
    }

    /** Defaults: name from the file, {@value #DEFAULT_THREADS} threads, native log off. */
    public static EngineConfig of(Path model, int slots, int contextPerSlot) {
        return new EngineConfig(model, Optional.empty(), slots, contextPerSlot, DEFAULT_THREADS, false);
    }

    public EngineConfig withModelName(String name) {
        return new EngineConfig(model, Optional.of(name), slots, contextPerSlot, threads, verboseNativeLog);
    }

    public EngineConfig withThreads(int count) {
        return new EngineConfig(model, modelName, slots, contextPerSlot, count, verboseNativeLog);
    }

    public EngineConfig withVerboseNativeLog(boolean verbose) {
        return new EngineConfig(model, modelName, slots, contextPerSlot, threads, verbose);
    }

    /**
     * Native context size: every slot's share plus one micro-batch of headroom per slot. Without the
     * headroom a full unified KV cache fragments (generated tokens land in whatever cells are free) until no
     * contiguous run is left for a micro-batch, and b4916 then fails the whole decode.
     */
    public int totalContext() {
        return slots * (contextPerSlot + LlamaEngine.MICRO_BATCH);
    }
}
