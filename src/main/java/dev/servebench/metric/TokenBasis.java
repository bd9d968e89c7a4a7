package dev.servebench.metric;

/** Which token counts a metric depends on; tells a reader whether the run's {@link TokenSource} matters. */
public enum TokenBasis {
    NONE("no token counts involved"),
    PROMPT_LENGTH("dataset prompt_len of each request (not the server's prompt_tokens)"),
    OUTPUT_LENGTH("output_len_i as chosen by the run's TokenSource"),
    PROMPT_AND_OUTPUT_LENGTH("dataset prompt_len plus output_len_i from the run's TokenSource"),
    USAGE_PROMPT_TOKENS("the server's usage.prompt_tokens of each request; the dataset prompt_len where a response"
            + " carried no usage"),
    USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH("usage.prompt_tokens (dataset prompt_len without usage) plus output_len_i"
            + " from the run's TokenSource"),
    TOKEN_EVENTS("arrival times and token counts of the stream's chunks; independent of TokenSource"),
    USAGE_AND_CHUNKS("compares server usage with the chunk-counted tokens; independent of TokenSource"),
    USAGE_AND_PROMPT_LENGTH("compares server usage.prompt_tokens with the dataset prompt_len; independent of both"
            + " token sources"),
    RETOKENIZED_OUTPUT("client tokenizer (retokenized generated text); independent of TokenSource"),
    RETOKENIZED_AND_USAGE("compares the client tokenizer's count of the generated text with server"
            + " usage.completion_tokens; independent of TokenSource");

    private final String description;

    TokenBasis(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** Whether the metric adds up input tokens, and from which count. */
    public InputCount inputCount() {
        return switch (this) {
            case PROMPT_LENGTH, PROMPT_AND_OUTPUT_LENGTH -> InputCount.DATASET;
            case USAGE_PROMPT_TOKENS, USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH -> InputCount.USAGE;
            case NONE, OUTPUT_LENGTH, TOKEN_EVENTS, USAGE_AND_CHUNKS, USAGE_AND_PROMPT_LENGTH, RETOKENIZED_OUTPUT,
                 RETOKENIZED_AND_USAGE -> InputCount.NONE;
        };
    }

    /** The input count a basis adds up: none, the dataset's prompt_len, or the server's prompt_tokens. */
    public enum InputCount {
        NONE("no input tokens"),
        DATASET("dataset prompt_len: exact for token-id prompts, an estimate for text prompts"),
        USAGE("server usage.prompt_tokens, exact; the dataset prompt_len (an estimate for text prompts) where a"
                + " response carried no usage");

        private final String description;

        InputCount(String description) {
            this.description = description;
        }

        /** What is counted, and when it is an estimate; for docs/metrics.md. */
        public String description() {
            return description;
        }
    }
}
