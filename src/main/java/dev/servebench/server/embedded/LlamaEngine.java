package dev.servebench.server.embedded;

import de.kherud.llama.LlamaModel;
import de.kherud.llama.ModelParameters;
import dev.servebench.gguf.GgufFile;
import dev.servebench.gguf.GgufReader;
import dev.servebench.gguf.ModelCache;
import dev.servebench.gguf.ModelSpec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@link InferenceEngine} on llama.cpp (java-llama.cpp 4.2.0, llama.cpp b4916), in this process.
 *
 * <p>The model is loaded with {@code slots} parallel sequences, continuous batching and flash attention
 * (the KV cache is shared by all slots, so without it every query attends over every slot's cells), and
 * a context of {@code slots × contextPerSlot}, which llama.cpp splits evenly between the slots. One
 * {@link Dispatcher} thread streams every generation; see there for why.
 *
 * <pre>{@code
 * try (LlamaEngine engine = LlamaEngine.start(new ModelSpec(42, WeightType.Q4_0), 16, 512)) {
 *     engine.submit(new GenerationRequest(engine.tokenize("hello"), 64, 0, true, 0.8, Optional.of(1L)), sink);
 * }
 * }</pre>
 */
public final class LlamaEngine implements InferenceEngine {

    /** Tokens per native micro-batch; see the KV-cache note where the model is loaded. */
    static final int MICRO_BATCH = 64;

    /** How long {@link #close} waits for the dispatcher to end the in-flight generations. */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);
    private static final System.Logger LOG = System.getLogger(LlamaEngine.class.getName());

    private final EngineInfo info;
    private final EngineVocabulary vocabulary;
    private final LlamaModel model;
    private final EngineCounters counters = new EngineCounters();
    private final Dispatcher dispatcher;
    private final Thread dispatcherThread;
    private final AtomicBoolean closed = new AtomicBoolean();

    private LlamaEngine(EngineConfig config, GgufFile gguf) {
        vocabulary = EngineVocabulary.of(gguf);
        String name = config.modelName().or(() -> gguf.string("general.name"))
                .orElse(config.model().getFileName().toString());
        info = new EngineInfo(name, config.slots(), config.contextPerSlot(), vocabulary.size());
        NativeLibrary.prepare();
        ModelParameters params = new ModelParameters()
                .setModel(config.model().toAbsolutePath().toString())
                .setParallel(config.slots())
                .enableContBatching()
                .enableFlashAttn()
                .setCtxSize(config.totalContext())
                // b4916's unified KV cache needs a contiguous run of free cells per micro-batch, and its
                // server fails the decode (ret -3: every slot errored) rather than retrying smaller when
                // finished slots' leftovers fragment the cache. Small micro-batches need short runs, and
                // defragmenting at 10 % fragmentation keeps such runs available.
                .setUbatchSize(MICRO_BATCH)
                .setDefragThold(0.1f)
                .setThreads(config.threads())
                .setThreadsBatch(config.threads());
        if (!config.verboseNativeLog()) {
            // The native server and common logs go to stdout; a logger callback does not catch them.
            params.disableLog();
        }
        model = new LlamaModel(params);
        dispatcher = new Dispatcher(model, vocabulary, config.slots(), counters);
        // A platform thread: the native receive blocks in JNI and would pin a virtual thread's carrier.
        dispatcherThread = Thread.ofPlatform().name("llama-dispatcher").daemon(true).unstarted(dispatcher);
        dispatcherThread.start();
    }

    /** Loads the model of {@code config}; the caller closes the engine. */
    public static LlamaEngine start(EngineConfig config) {
        Objects.requireNonNull(config, "config");
        GgufFile gguf;
        try {
            gguf = GgufReader.readMetadata(config.model());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read model " + config.model(), e);
        }
        return new LlamaEngine(config, gguf);
    }

    /** Generates {@code spec}'s model into {@code cacheDir} if absent, then loads it with defaults. */
    public static LlamaEngine start(ModelSpec spec, Path cacheDir, int slots, int contextPerSlot) {
        try {
            Path file = ModelCache.ensure(spec, cacheDir);
            return start(EngineConfig.of(file, slots, contextPerSlot).withModelName(spec.modelName()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot generate model " + spec, e);
        }
    }

    /** As {@link #start(ModelSpec, Path, int, int)} with {@link ModelCache#defaultDir()}. */
    public static LlamaEngine start(ModelSpec spec, int slots, int contextPerSlot) {
        return start(spec, ModelCache.defaultDir(), slots, contextPerSlot);
    }

    @Override
    public EngineInfo info() {
        return info;
    }

    @Override
    public int[] tokenize(String text) {
        Objects.requireNonNull(text, "text");
        ensureOpen();
        return model.encode(text);
    }

    @Override
    public GenerationHandle submit(GenerationRequest request, TokenSink sink) {
        Objects.requireNonNull(request, "request");
        Objects.requireNonNull(sink, "sink");
        validate(request);
        Generation generation = new Generation(request, sink, vocabulary.bosId(), dispatcher::wake);
        if (closed.get() || !dispatcher.enqueue(generation)) {
            throw new IllegalStateException("engine is closed");
        }
        return generation;
    }

    private void validate(GenerationRequest request) {
        int promptLength = request.promptLength();
        if (promptLength == 0) {
            throw new IllegalArgumentException("prompt must hold at least 1 token");
        }
        long needed = (long) promptLength + request.maxTokens() + 1;
        if (needed > info.contextPerSlot()) {
            throw new IllegalArgumentException("prompt (" + promptLength + " tokens) + max_tokens (" + request.maxTokens()
                    + ") + 1 (BOS) = " + needed + " exceeds the context per slot (" + info.contextPerSlot() + ")");
        }
        for (int id : request.prompt()) {
            if (id < 0 || id >= info.vocabSize()) {
                throw new IllegalArgumentException("prompt token id (" + id + ") must be in [0, vocab size="
                        + info.vocabSize() + ")");
            }
        }
    }

    @Override
    public EngineStats stats() {
        return counters.snapshot();
    }

    /**
     * Ends in-flight and queued generations with {@code onError("server shutting down")}, stops the
     * dispatcher and frees the model. Idempotent. Should the dispatcher not stop in time (a native receive
     * that never returns), the native model is leaked rather than freed under its feet.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        dispatcher.stop();
        try {
            if (!dispatcherThread.join(CLOSE_TIMEOUT)) {
                LOG.log(System.Logger.Level.DEBUG, "dispatcher did not stop within {0}; native model leaked", CLOSE_TIMEOUT);
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        model.close();
    }

    private void ensureOpen() {
        if (closed.get()) {
            throw new IllegalStateException("engine is closed");
        }
    }
}
