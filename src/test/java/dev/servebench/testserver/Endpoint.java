package dev.servebench.testserver;

/** The generation endpoints the server scripts; {@code /health} and {@code /v1/models} are answered statically. */
public enum Endpoint {
    /** OpenAI legacy completions, as served by vLLM and SGLang. */
    COMPLETIONS("/v1/completions"),
    /** OpenAI chat completions. */
    CHAT("/v1/chat/completions"),
    /** SGLang's native generate endpoint (cumulative text per event). */
    GENERATE("/generate");

    private final String path;

    Endpoint(String path) {
        this.path = path;
    }

    public String path() {
        return path;
    }

    /** The endpoint served at {@code path} (query string already stripped), or null. */
    static Endpoint forPath(String path) {
        for (Endpoint e : values()) {
            if (e.path.equals(path)) {
                return e;
            }
        }
        return null;
    }
}
