package dev.servebench.metric;

/**
 * How far the dataset's prompt_len can be trusted: it decides whether an input count built on it is an
 * estimate. The records cannot tell (both kinds store a prompt_len), so the run says which prompts it sent.
 */
public enum DatasetPromptLengths {
    /** Token-id prompts: prompt_len is the number of ids sent. */
    EXACT,
    /**
     * Text prompts counted by the run's tokenizer ({@code --tokenizer}): exact in that tokenizer, special tokens
     * included; a server with another tokenizer or a chat template counts differently (prompt_token_mismatches).
     */
    TOKENIZED,
    /** Text prompts (and every ShareGPT row) without a tokenizer: prompt_len is estimated from the words. */
    ESTIMATED;

    /** Whether prompt_len is a count rather than an estimate. */
    public boolean counted() {
        return this != ESTIMATED;
    }

    /** How the dataset's prompt_len was obtained, for the console. */
    public String describe() {
        return switch (this) {
            case EXACT -> "token ids, exact";
            case TOKENIZED -> "counted by the client tokenizer";
            case ESTIMATED -> "estimated from words";
        };
    }
}
