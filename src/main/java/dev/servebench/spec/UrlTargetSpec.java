package dev.servebench.spec;

import dev.servebench.client.Backend;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * A server that is already running. The API key is never part of a spec: it comes from
 * {@code OPENAI_API_KEY}, so spec files can be committed.
 *
 * @param url base URL, {@code http(s)://host:port} with an optional path prefix
 */
public record UrlTargetSpec(URI url, Backend backend, Optional<String> model) implements TargetSpec {

    public UrlTargetSpec {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(model, "model");
        if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null
                || url.getQuery() != null || url.getFragment() != null) {
            throw new IllegalArgumentException("url must be http(s)://host[:port][/path] without query or fragment, got "
                    + url);
        }
    }

    @Override
    public String kind() {
        return "url";
    }
}
