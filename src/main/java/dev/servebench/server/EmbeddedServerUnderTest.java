package dev.servebench.server;

import dev.servebench.client.Backend;
import dev.servebench.spec.EmbeddedTargetSpec;
import dev.servebench.server.embedded.TokenDelay;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * servebench's own engine, started in this JVM on a free loopback port with the spec's weights and slots.
 * Its native log is not captured (llama.cpp writes it to the process's stdout when enabled), so
 * {@link #logExcerpt(int)} is empty.
 */
public final class EmbeddedServerUnderTest implements ServerUnderTest {

    /** Seed of the generated weights: the one {@code servebench serve} and {@code run} use. */
    public static final long WEIGHTS_SEED = 1;
    /** Loading the tiny model takes about a second; a first completion a few milliseconds. */
    static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    static final String NO_RESET = "embedded engine: prompts vary, no shared prefix cache reset endpoint";

    private final EmbeddedTargetSpec spec;
    private final EmbeddedTarget target;
    private final int contextPerSlot;
    private final TokenDelay tokenDelay;
    private final Optional<String> model;
    private boolean closed;

    private EmbeddedServerUnderTest(EmbeddedTargetSpec spec, EmbeddedTarget target, int contextPerSlot,
                                    TokenDelay tokenDelay, Optional<String> model) {
        this.spec = spec;
        this.target = target;
        this.contextPerSlot = contextPerSlot;
        this.tokenDelay = tokenDelay;
        this.model = model;
    }

    /**
     * @param contextPerSlot prompt (with BOS) + output tokens one request may use; see
     *                       {@link LaunchSettings#embeddedContextFor(dev.servebench.spec.WorkloadSpec)}
     */
    public static EmbeddedServerUnderTest start(EmbeddedTargetSpec spec, int contextPerSlot, TokenDelay tokenDelay)
            throws IOException, InterruptedException {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(tokenDelay, "tokenDelay");
        EmbeddedTarget target;
        try {
            target = EmbeddedTarget.start(new EmbeddedTarget.Options("127.0.0.1", 0, spec.slots(), contextPerSlot,
                    spec.weights(), WEIGHTS_SEED, false, tokenDelay, spec.threads()));
        } catch (RuntimeException e) {
            throw new ServerStartException(ServerStartException.Reason.LAUNCH_FAILED,
                    "cannot start the embedded engine (" + spec.weights().label() + ", " + spec.slots() + " slots, "
                            + contextPerSlot + " tokens each): " + e.getMessage(), e);
        }
        try {
            Readiness.Ready ready = Readiness.await(target.baseUrl(), spec.backend(), spec.model(), Optional.empty(),
                    READY_TIMEOUT, () -> true);
            return new EmbeddedServerUnderTest(spec, target, contextPerSlot, tokenDelay, ready.model());
        } catch (ServerStartException | InterruptedException | RuntimeException e) {
            target.close();
            throw e;
        }
    }

    @Override
    public URI baseUrl() {
        return target.baseUrl();
    }

    @Override
    public String kind() {
        return spec.kind();
    }

    @Override
    public Backend backend() {
        return spec.backend();
    }

    @Override
    public Optional<String> model() {
        return model;
    }

    @Override
    public Optional<TokenIdRange> promptTokenIds() {
        return Optional.of(new TokenIdRange(EmbeddedTarget.FIRST_ORDINARY_TOKEN,
                target.vocabSize() - EmbeddedTarget.FIRST_ORDINARY_TOKEN));
    }

    @Override
    public String describe() {
        return "embedded engine " + target.modelName() + " (" + spec.weights().label() + ", " + spec.slots()
                + " slots, " + contextPerSlot + " tokens each, " + spec.threads() + " threads) at " + baseUrl() + ", backend "
                + spec.backend().cliName()
                + (tokenDelay.isNone() ? "" : ", INJECTED SLOWDOWN: token delay " + tokenDelay);
    }

    @Override
    public String logExcerpt(int maxLines) {
        return "";
    }

    /** The embedded server has no reset endpoint; asking it would only produce a 404. */
    @Override
    public CacheReset resetCache() {
        return new CacheReset.NotOffered(NO_RESET);
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            target.close();
        }
    }
}
