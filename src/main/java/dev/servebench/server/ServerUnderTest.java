package dev.servebench.server;

import dev.servebench.client.Backend;
import java.net.URI;
import java.util.Optional;

/**
 * A server the suite measures, already answering a real one-token completion when handed out, and torn down
 * by {@link #close()}. Implementations: {@link UrlServer}, {@link EmbeddedServerUnderTest}, {@link ProcessServer},
 * and a container server plugged in through {@link ContainerLauncher}.
 */
public interface ServerUnderTest extends AutoCloseable {

    /** Where requests go, {@code http://host:port} with an optional path prefix and no trailing slash. */
    URI baseUrl();

    /** The spec's {@code kind}: {@code embedded}, {@code url}, {@code process} or {@code container}. */
    String kind();

    /** The API flavour requests use. */
    Backend backend();

    /** The model name to send: the spec's, else the one the readiness check found; empty = send none. */
    Optional<String> model();

    /**
     * Token ids random prompts must stay within, when the server knows its vocabulary (the embedded engine);
     * empty = the caller's default range.
     */
    default Optional<TokenIdRange> promptTokenIds() {
        return Optional.empty();
    }

    /** One line for reports: what runs where. Never contains an API key, environment values or secret-looking arguments. */
    String describe();

    /** The last {@code maxLines} lines of the server's own log, oldest first; {@code ""} when there is none. */
    String logExcerpt(int maxLines);

    /** Empties the server's prefix cache where it offers a way to; never throws. */
    CacheReset resetCache();

    /** Stops what was started for the run (nothing for a URL target); safe to call twice. */
    @Override
    void close();
}
