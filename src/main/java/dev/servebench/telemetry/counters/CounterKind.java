package dev.servebench.telemetry.counters;

/** The three server counters the cross-check compares with the client's own totals. */
public enum CounterKind {
    GENERATED_TOKENS("generated tokens", "generated-token"),
    PROMPT_TOKENS("prompt tokens", "prompt-token"),
    FINISHED_REQUESTS("finished requests", "finished-request");

    private final String noun;
    private final String adjective;

    CounterKind(String noun, String adjective) {
        this.noun = noun;
        this.adjective = adjective;
    }

    /** Plural noun for report lines: "server counted 8,192 generated tokens". */
    public String noun() {
        return noun;
    }

    /** Compound-adjective form: "no generated-token counter". */
    public String adjective() {
        return adjective;
    }
}
