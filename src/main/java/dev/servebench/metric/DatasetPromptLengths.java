package dev.servebench.metric;

/**
 * How far the dataset's prompt_len can be trusted: it decides whether an input count built on it is an
 * estimate. The records cannot tell (both kinds store a prompt_len), so the run says which prompts it sent.
 */
public enum DatasetPromptLengths {
    /** Token-id prompts: prompt_len is the number of ids sent. */
    EXACT,
    /** Text prompts (and every ShareGPT row): prompt_len is estimated from the words; there is no tokenizer. */
    ESTIMATED
}
