package dev.servebench.client;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings of the streaming HTTP client.
 *
 * @param baseUrl      scheme, host and port of the server, e.g. {@code http://127.0.0.1:30000}
 * @param endpoint     the streaming API to call
 * @param apiKey       bearer token, never printed or written anywhere
 * @param ioThreads    event-loop threads (1 suffices for thousands of streams; see the README)
 * @param stallTimeout a request fails with TIMEOUT when no byte arrives for this long
 * @param requestTimeout a request fails with TIMEOUT when it takes longer than this in all (empty: no limit)
 */
public record ClientConfig(URI baseUrl, Endpoint endpoint, Optional<String> apiKey, int ioThreads, Duration stallTimeout,
                           Optional<Duration> requestTimeout) {

    /** Without a total request timeout. */
    public ClientConfig(URI baseUrl, Endpoint endpoint, Optional<String> apiKey, int ioThreads, Duration stallTimeout) {
        this(baseUrl, endpoint, apiKey, ioThreads, stallTimeout, Optional.empty());
    }

    public ClientConfig {
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (requestTimeout.isPresent() && (requestTimeout.get().isNegative() || requestTimeout.get().isZero())) {
            throw new IllegalArgumentException("requestTimeout (" + requestTimeout.get() + ") must be > 0");
        }
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(stallTimeout, "stallTimeout");
        if (!"http".equalsIgnoreCase(baseUrl.getScheme())) {
            throw new IllegalArgumentException("baseUrl (" + baseUrl + ") must use http:// (https is not supported yet)");
        }
        if (baseUrl.getHost() == null) {
            throw new IllegalArgumentException("baseUrl (" + baseUrl + ") has no host");
        }
        if (ioThreads < 1) {
            throw new IllegalArgumentException("ioThreads (" + ioThreads + ") must be >= 1");
        }
        if (stallTimeout.isNegative() || stallTimeout.isZero()) {
            throw new IllegalArgumentException("stallTimeout (" + stallTimeout + ") must be > 0");
        }
    }

    public int port() {
        return baseUrl.getPort() > 0 ? baseUrl.getPort() : 80;
    }

    /** Path prefix of the base URL without a trailing slash (servers mounted under a path). */
    public String pathPrefix() {
        String path = baseUrl.getRawPath();
        if (path == null || path.isEmpty() || "/".equals(path)) {
            return "";
        }
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }

    @Override
    public String toString() {
        return "ClientConfig[baseUrl=" + baseUrl + ", endpoint=" + endpoint + ", apiKey="
                + (apiKey.isPresent() ? "(set)" : "(none)") + ", ioThreads=" + ioThreads + ", stallTimeout=" + stallTimeout
                + ", requestTimeout=" + requestTimeout.map(Duration::toString).orElse("none") + "]";
    }
}
