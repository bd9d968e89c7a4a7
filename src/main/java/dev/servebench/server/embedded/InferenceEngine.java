package dev.servebench.server.embedded;

/**
 * A continuously batching text-generation engine behind the embedded OpenAI-compatible server. The HTTP
 * layer depends only on this interface; {@code LlamaEngine} implements it with llama.cpp, tests use fakes.
 *
 * <p>Threading contract: {@link #submit} never blocks on generation; the sink is called from the
 * engine's own dispatcher thread, in order, and must not block (hand tokens to a queue).
 */
public interface InferenceEngine extends AutoCloseable {

    EngineInfo info();

    /** Token ids of {@code text}, without the BOS token the engine adds itself. */
    int[] tokenize(String text);

    /**
     * Starts a generation. Validation failures (prompt + max tokens beyond the slot context, empty prompt)
     * throw {@link IllegalArgumentException} with a message naming the limit; nothing is queued then.
     */
    GenerationHandle submit(GenerationRequest request, TokenSink sink);

    /** Counters for /metrics; cheap and thread-safe. */
    EngineStats stats();

    /** Stops the engine: in-flight generations end with {@link TokenSink#onError}; then frees native memory. */
    @Override
    void close();
}
