package dev.servebench.spec;

import dev.servebench.client.Backend;
import dev.servebench.client.Endpoint;
import dev.servebench.gguf.WeightType;
import java.util.Objects;
import java.util.Optional;

/**
 * servebench's own engine (a tiny llama.cpp MoE), started in-process on a free loopback port.
 *
 * @param weights F16 or Q4_0
 * @param slots   sequences the engine decodes together, in [1, 256]
 * @param threads llama.cpp decode and prompt-batch threads, in [1, 64]
 * @param backend an OpenAI-style backend: the embedded server has no {@code /generate}
 */
public record EmbeddedTargetSpec(WeightType weights, int slots, int threads, Backend backend, Optional<String> model)
        implements TargetSpec {

    /** The embedded engine's limit (EmbeddedTarget.Options). */
    public static final int MAX_SLOTS = 256;
    /** Slots when no sweep point has a concurrency cap, as {@code servebench run} does. */
    public static final int DEFAULT_SLOTS = 16;
    public static final int DEFAULT_THREADS = 2;
    public static final int MAX_THREADS = 64;

    public EmbeddedTargetSpec {
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(model, "model");
        if (slots < 1 || slots > MAX_SLOTS) {
            throw new IllegalArgumentException("slots (" + slots + ") must be in [1, " + MAX_SLOTS + "]");
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads (" + threads + ") must be in [1, " + MAX_THREADS + "]");
        }
        if (!servable(backend)) {
            throw new IllegalArgumentException("the embedded server serves /v1/completions and /v1/chat/completions;"
                    + " backend " + backend + " uses " + backend.endpoint().path());
        }
    }

    static boolean servable(Backend backend) {
        return backend.endpoint() == Endpoint.COMPLETIONS || backend.endpoint() == Endpoint.CHAT_COMPLETIONS;
    }

    @Override
    public String kind() {
        return "embedded";
    }
}
