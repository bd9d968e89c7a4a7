package dev.servebench.metric;

/**
 * A per-request (or per-token) time list in seconds whose statistics are reported in milliseconds.
 * The SGLang and vLLM series differ in which requests count as successful and in their per-request
 * definitions, which {@code RequestRecord}'s {@code sglang*} / {@code vllm*} views reproduce.
 */
public enum LatencySeries {
    SGLANG_TTFT(Origin.SGLANG, "ttft", "TTFT", "Time to First Token", TokenBasis.TOKEN_EVENTS,
            "ttft_i = first event with non-empty text - send (0 when none came), successful requests"),
    SGLANG_TPOT(Origin.SGLANG, "tpot", "TPOT", "Time per Output Token (excl. 1st token)", TokenBasis.OUTPUT_LENGTH,
            "tpot_i = (e2e_latency_i - ttft_i) / (output_len_i - 1), successful requests with output_len_i > 1"),
    SGLANG_ITL(Origin.SGLANG, "itl", "ITL", "Inter-Token Latency", TokenBasis.TOKEN_EVENTS,
            "itl_i = per-request ITLs concatenated in dispatch order: gap of each later token event to the"
                    + " previous one, split evenly over the event's tokens, successful requests"),
    SGLANG_E2E(Origin.SGLANG, "e2e_latency", "E2E Latency", "End-to-End Latency", TokenBasis.NONE,
            "e2e_latency_i = last non-empty SSE line (normally [DONE]) - send, successful requests"
                    + " (SGLang crashes instead of reporting 0 when there are none)"),
    VLLM_TTFT(Origin.VLLM, "ttft", "TTFT", null, TokenBasis.NONE,
            "ttft_i = first choice-bearing event (text may be empty) - send, vLLM-successful requests"),
    VLLM_TPOT(Origin.VLLM, "tpot", "TPOT", null, TokenBasis.OUTPUT_LENGTH,
            "tpot_i = (e2el_i - ttft_i) / (output_len_i - 1) with vLLM's ttft and e2el,"
                    + " vLLM-successful requests with output_len_i > 1"),
    VLLM_ITL(Origin.VLLM, "itl", "ITL", null, TokenBasis.TOKEN_EVENTS,
            "itl_i = per-request ITLs concatenated in dispatch order: gap of each later choice-bearing event"
                    + " to the previous one, vLLM-successful requests"),
    VLLM_E2EL(Origin.VLLM, "e2el", "E2EL", null, TokenBasis.NONE,
            "e2el_i = last choice-bearing event (usage chunk and [DONE] excluded) - send,"
                    + " vLLM-successful requests"),
    QUEUE_TIME(Origin.SERVEBENCH, "queue_time", null, null, TokenBasis.NONE,
            "queue_time_i = actual send - intended send (client-side wait, e.g. for a concurrency slot),"
                    + " successful requests"),
    DISPATCH_LAG(Origin.SERVEBENCH, "dispatch_lag", null, null, TokenBasis.NONE,
            "dispatch_lag_i = actual send - ready time (due and a concurrency slot free): the client's own"
                    + " lateness, all requests");

    private final Origin origin;
    private final String stem;
    private final String labelName;
    private final String consoleSection;
    private final TokenBasis tokenBasis;
    private final String definition;

    LatencySeries(Origin origin, String stem, String labelName, String consoleSection, TokenBasis tokenBasis,
            String definition) {
        this.origin = origin;
        this.stem = stem;
        this.labelName = labelName;
        this.consoleSection = consoleSection;
        this.tokenBasis = tokenBasis;
        this.definition = definition;
    }

    public Origin origin() {
        return origin;
    }

    /** Name inside metric ids: {@code ttft}, {@code e2e_latency}, {@code e2el}, ... */
    public String stem() {
        return stem;
    }

    /** Name in console labels ("TTFT", "E2E Latency"); null when no tool prints this series. */
    String labelName() {
        return labelName;
    }

    public TokenBasis tokenBasis() {
        return tokenBasis;
    }

    /** Title of the series' section in SGLang's console block; empty where SGLang prints no such section. */
    public java.util.Optional<String> consoleSection() {
        return java.util.Optional.ofNullable(consoleSection);
    }

    /** The series' name in titles: the console's name ("TTFT", "E2E Latency"), else its stem. */
    public String title() {
        return labelName != null ? labelName : stem;
    }

    /** How one entry of the list is defined, for reports. */
    public String definition() {
        return definition;
    }
}
