package dev.servebench.server;

import dev.servebench.server.embedded.EngineConfig;
import dev.servebench.server.embedded.DelayedEngine;
import dev.servebench.server.embedded.InferenceEngine;
import dev.servebench.server.embedded.LlamaEngine;
import dev.servebench.server.embedded.TokenDelay;
import dev.servebench.gguf.ModelCache;
import dev.servebench.gguf.ModelSpec;
import dev.servebench.gguf.WeightType;
import dev.servebench.server.embedded.http.EmbeddedServer;
import dev.servebench.server.embedded.http.ServerSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The embedded server under test: a generated tiny MoE model run by llama.cpp, served over the OpenAI API
 * on loopback. Owns both the engine and the HTTP server, and stops them in that order's reverse.
 */
public final class EmbeddedTarget implements AutoCloseable {

    /** Token ids a random prompt may use: above the specials and the 256 byte tokens, below the vocabulary size. */
    public static final int FIRST_ORDINARY_TOKEN = 259;

    /**
     * @param host           bind address
     * @param port           0 = any free port
     * @param slots          sequences decoded together
     * @param contextPerSlot prompt (incl. BOS) + output tokens per request
     * @param weights        F16 or Q4_0
     * @param seed           seed of the generated weights
     * @param nativeLog      let llama.cpp print its log
     * @param tokenDelay     injected slowdown ({@link TokenDelay#NONE} normally)
     * @param threads        llama.cpp decode and prompt-batch threads
     */
    public record Options(String host, int port, int slots, int contextPerSlot, WeightType weights, long seed,
                          boolean nativeLog, TokenDelay tokenDelay, int threads) {
        public Options {
            Objects.requireNonNull(host, "host");
            Objects.requireNonNull(weights, "weights");
            Objects.requireNonNull(tokenDelay, "tokenDelay");
            if (threads < 1) {
                throw new IllegalArgumentException("threads (" + threads + ") must be >= 1");
            }
            if (slots < 1 || slots > 256) {
                throw new IllegalArgumentException("slots (" + slots + ") must be in [1, 256]");
            }
            if (contextPerSlot < 8) {
                throw new IllegalArgumentException("contextPerSlot (" + contextPerSlot + ") must be >= 8");
            }
        }

        public Options(String host, int port, int slots, int contextPerSlot, WeightType weights, long seed,
                       boolean nativeLog) {
            this(host, port, slots, contextPerSlot, weights, seed, nativeLog, TokenDelay.NONE, EngineConfig.DEFAULT_THREADS);
        }
    }

    private final InferenceEngine engine;
    private final EmbeddedServer server;
    private final Path tokenizerFile;

    private EmbeddedTarget(InferenceEngine engine, EmbeddedServer server, Path tokenizerFile) {
        this.tokenizerFile = tokenizerFile;
        this.engine = engine;
        this.server = server;
    }

    public static EmbeddedTarget start(Options options) throws IOException {
        ModelSpec spec = new ModelSpec(options.seed(), options.weights());
        Path model = ModelCache.ensure(spec, ModelCache.defaultDir());
        LlamaEngine llama = LlamaEngine.start(EngineConfig.of(model, options.slots(), options.contextPerSlot())
                .withModelName(spec.modelName()).withVerboseNativeLog(options.nativeLog()).withThreads(options.threads()));
        InferenceEngine engine = options.tokenDelay().isNone() ? llama : new DelayedEngine(llama, options.tokenDelay());
        try {
            EmbeddedServer server = EmbeddedServer.start(engine,
                    ServerSettings.defaults().withHost(options.host()).withPort(options.port()));
            return new EmbeddedTarget(engine, server, ModelCache.tokenizerFile(model));
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    public static WeightType weights(String name) {
        for (WeightType type : WeightType.values()) {
            if (type.label().equals(name.toLowerCase(Locale.ROOT))) {
                return type;
            }
        }
        throw new IllegalArgumentException("--weights must be one of "
                + Arrays.stream(WeightType.values()).map(WeightType::label).collect(Collectors.joining(", "))
                + ", got '" + name + "'");
    }

    public URI baseUrl() {
        return URI.create("http://" + server.settings().host() + ":" + server.port());
    }

    public String modelName() {
        return engine.info().modelName();
    }

    /** The model's HuggingFace tokenizer.json, for {@code --tokenizer}: it counts as the engine does. */
    public Path tokenizerFile() {
        return tokenizerFile;
    }

    public int vocabSize() {
        return engine.info().vocabSize();
    }

    public void awaitShutdown() throws InterruptedException {
        server.awaitShutdown();
    }

    @Override
    public void close() {
        server.close();
        engine.close();
    }
}
