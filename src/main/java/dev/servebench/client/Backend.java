package dev.servebench.client;

import java.util.Arrays;
import java.util.stream.Collectors;

/** bench_serving's {@code --backend} names, each mapped to the endpoint it streams from. */
public enum Backend {
    SGLANG("sglang", Endpoint.SGLANG_GENERATE),
    SGLANG_NATIVE("sglang-native", Endpoint.SGLANG_GENERATE),
    SGLANG_OAI("sglang-oai", Endpoint.COMPLETIONS),
    SGLANG_OAI_CHAT("sglang-oai-chat", Endpoint.CHAT_COMPLETIONS),
    VLLM("vllm", Endpoint.COMPLETIONS),
    VLLM_CHAT("vllm-chat", Endpoint.CHAT_COMPLETIONS),
    OPENAI("openai", Endpoint.COMPLETIONS),
    OPENAI_CHAT("openai-chat", Endpoint.CHAT_COMPLETIONS),
    LMDEPLOY("lmdeploy", Endpoint.COMPLETIONS),
    LMDEPLOY_CHAT("lmdeploy-chat", Endpoint.CHAT_COMPLETIONS);

    private final String cliName;
    private final Endpoint endpoint;

    Backend(String cliName, Endpoint endpoint) {
        this.cliName = cliName;
        this.endpoint = endpoint;
    }

    public String cliName() {
        return cliName;
    }

    public Endpoint endpoint() {
        return endpoint;
    }

    public static Backend fromCliName(String name) {
        for (Backend backend : values()) {
            if (backend.cliName.equals(name)) {
                return backend;
            }
        }
        throw new IllegalArgumentException("unknown backend '" + name + "'; expected one of: "
                + Arrays.stream(values()).map(Backend::cliName).collect(Collectors.joining(", ")));
    }

    @Override
    public String toString() {
        return cliName;
    }
}
