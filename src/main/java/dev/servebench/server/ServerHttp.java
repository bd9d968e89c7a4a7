package dev.servebench.server;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/** The few HTTP calls made around a measurement (readiness, cache reset): JDK client, never on the hot path. */
final class ServerHttp {

    /** Longest server answer quoted in an error message. */
    static final int PREVIEW_CHARS = 300;

    private ServerHttp() {}

    static HttpClient newClient(Duration connectTimeout) {
        // HTTP/1.1 only: the JDK would otherwise offer an h2c upgrade, which some Python servers mishandle.
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
    }

    /** {@code baseUrl} + {@code path}, whether or not the base URL ends with a slash. */
    static URI resolve(URI baseUrl, String path) {
        String base = baseUrl.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + path);
    }

    static HttpRequest.Builder request(URI uri, Optional<String> apiKey, Duration timeout) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout);
        apiKey.ifPresent(key -> request.header("Authorization", "Bearer " + key));
        return request;
    }

    /** A server's answer as one short line for an error message. */
    static String preview(String body) {
        String line = body.strip().replaceAll("\\s+", " ");
        return line.length() <= PREVIEW_CHARS ? line : line.substring(0, PREVIEW_CHARS) + "…";
    }

    /** An I/O failure in words, e.g. "connection refused". */
    static String describe(IOException e) {
        if (e instanceof HttpConnectTimeoutException) {
            return "connect timed out";
        }
        if (e instanceof HttpTimeoutException) {
            return "no answer within the request timeout";
        }
        if (e instanceof ConnectException) {
            return "connection refused";
        }
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
    }

    static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
