package dev.servebench.metric;

/**
 * Where a successful request's input length comes from for {@code total_input_tokens}, {@code input_throughput}
 * and {@code total_throughput}. The server's count is always reported as well, under the {@code server_*} ids.
 */
public enum InputTokenSource {
    /**
     * The dataset row's prompt_len, SGLang's own definition: exact for token-id prompts (the server may add a
     * BOS), estimated from the words for text prompts. The default, so the SGLang keys mean what SGLang means.
     */
    DATASET("the dataset row's prompt_len (SGLang's definition): exact for token-id prompts, estimated from the"
            + " prompt's words for text prompts"),
    /**
     * The server's {@code usage.prompt_tokens}; a request without usage falls back to its dataset prompt_len,
     * and the summary counts the fallback.
     */
    SERVER_USAGE("usage.prompt_tokens from the server; the dataset's prompt_len when a response carried no usage");

    private final String description;

    InputTokenSource(String description) {
        this.description = description;
    }

    /** One line for reports. */
    public String description() {
        return description;
    }
}
