package de.kherud.llama;

/**
 * Reaches the package-private task API of java-llama.cpp 4.2.0 so that one dispatcher thread can drive
 * many streaming completions. The library's own {@code LlamaIterator} needs a blocking thread per
 * stream, and its native receive busy-waits whenever the result queue holds other tasks' results, so N
 * streams would burn N threads' worth of mutex spinning (see docs/embedded-engine.md, Streaming).
 *
 * <p>This class sits in the library's package on the class path (split package, unnamed module), which is
 * the only way to call those methods without reflection. It adds nothing but access; every method maps
 * to one library call.
 */
public final class LlamaBridge {

    /** One streamed result: a token's text (empty in the final result) and whether the task ended. */
    public record Chunk(String text, boolean stop) {
    }

    private LlamaBridge() {
    }

    /**
     * Sets the prompt to token ids. The native server takes a JSON array of numbers as-is (no BOS is
     * added, unlike for a text prompt), which spares a detokenize/retokenize round trip.
     */
    public static InferenceParameters setPromptTokens(InferenceParameters params, int[] tokens) {
        StringBuilder json = new StringBuilder(tokens.length * 5 + 2).append('[');
        for (int i = 0; i < tokens.length; i++) {
            if (i > 0) {
                json.append(',');
            }
            json.append(tokens[i]);
        }
        params.parameters.put("prompt", json.append(']').toString());
        return params;
    }

    /** Sets a parameter to a raw JSON value, for server fields the builder lacks (e.g. an unsigned seed). */
    public static InferenceParameters setRaw(InferenceParameters params, String key, String json) {
        params.parameters.put(key, json);
        return params;
    }

    /** Posts a streaming completion task and returns its id; never blocks on generation. */
    public static int request(LlamaModel model, InferenceParameters params) {
        params.setStream(true);
        return model.requestCompletion(params.toString());
    }

    /**
     * Blocks until the task's next result. Only call it for a task that holds (or is about to get) a
     * slot, otherwise it waits until one frees up. After a {@code stop} chunk the task is gone.
     */
    public static Chunk receive(LlamaModel model, int taskId) {
        LlamaOutput output = model.receiveCompletion(taskId);
        return new Chunk(output.text, output.stop);
    }

    /** Class-path folder of this platform's native library, e.g. {@code /de/kherud/llama/Linux/x86_64}. */
    public static String nativeResourceFolder() {
        return "/de/kherud/llama/" + OSInfo.getNativeLibFolderPathForCurrentOS();
    }

    /** Cancels the task, frees its slot and drops its queued results; the task id is dead afterwards. */
    public static void cancel(LlamaModel model, int taskId) {
        model.cancelCompletion(taskId);
    }
}
