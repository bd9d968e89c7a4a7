package dev.servebench.metric;

/** Which token counts a metric depends on; tells a reader whether the run's {@link TokenSource} matters. */
public enum TokenBasis {
    NONE("no token counts involved"),
    PROMPT_LENGTH("dataset prompt_len of each request (not the server's prompt_tokens)"),
    OUTPUT_LENGTH("output_len_i as chosen by the run's TokenSource"),
    PROMPT_AND_OUTPUT_LENGTH("dataset prompt_len plus output_len_i from the run's TokenSource"),
    TOKEN_EVENTS("arrival times and token counts of the stream's chunks; independent of TokenSource"),
    USAGE_AND_CHUNKS("compares server usage with the chunk-counted tokens; independent of TokenSource");

    private final String description;

    TokenBasis(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
