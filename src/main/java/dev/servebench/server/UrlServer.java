package dev.servebench.server;

import dev.servebench.client.Backend;
import dev.servebench.spec.UrlTargetSpec;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/** A server that was already running: nothing to start or stop, but it must serve before it is measured. */
public final class UrlServer implements ServerUnderTest {

    /** An already running server should answer at once; this leaves room for a cold first completion. */
    public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(60);

    private final UrlTargetSpec spec;
    private final Optional<String> apiKey;
    private final Optional<String> model;

    private UrlServer(UrlTargetSpec spec, Optional<String> apiKey, Optional<String> model) {
        this.spec = spec;
        this.apiKey = apiKey;
        this.model = model;
    }

    /**
     * Waits until {@code spec.url()} serves a one-token completion.
     *
     * @throws ServerStartException not serving within {@code readyTimeout}, or refusing the request
     */
    public static UrlServer connect(UrlTargetSpec spec, Optional<String> apiKey, Duration readyTimeout)
            throws ServerStartException, InterruptedException {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(apiKey, "apiKey");
        Readiness.Ready ready = Readiness.await(spec.url(), spec.backend(), spec.model(), apiKey, readyTimeout, () -> true);
        return new UrlServer(spec, apiKey, ready.model());
    }

    @Override
    public URI baseUrl() {
        return spec.url();
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
    public String describe() {
        return "server at " + Redaction.url(spec.url()) + ", backend " + spec.backend().cliName()
                + model.map(m -> ", model " + m).orElse("") + " (already running; its log is not ours to read)";
    }

    @Override
    public String logExcerpt(int maxLines) {
        return "";
    }

    @Override
    public CacheReset resetCache() {
        return CacheResets.attempt(spec.url(), spec.backend(), apiKey);
    }

    /** Leaves the server running: it was not ours to start. */
    @Override
    public void close() {
    }
}
