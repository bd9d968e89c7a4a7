package dev.servebench.workload;

/**
 * The client-side tokenizer of a run (SGLang's and vLLM's {@code --tokenizer}): counts the tokens of a text
 * the way the server's tokenizer would. Implementations are safe to call from several threads.
 */
public interface Tokenizer {

    /**
     * Tokens of {@code text} as a raw prompt: with the special tokens the tokenizer adds (a BOS, for
     * Llama-style tokenizers), as SGLang counts a ShareGPT prompt ({@code len(tokenizer.encode(prompt))}).
     */
    int countPrompt(String text);

    /**
     * Tokens of {@code text} without special tokens, as SGLang re-counts generated text
     * ({@code encode(text, add_special_tokens=False)}).
     */
    int countText(String text);

    /** Where the tokenizer came from, for notes and errors, e.g. the path of its tokenizer.json. */
    String describe();

    /** Special tokens added to every prompt ({@code num_special_tokens_to_add}): the prompt count of "". */
    default int specialTokens() {
        return countPrompt("");
    }
}
