package dev.servebench.telemetry.counters;

import dev.servebench.telemetry.prometheus.PrometheusFormatException;
import dev.servebench.telemetry.prometheus.PrometheusText;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * GETs a server's Prometheus {@code /metrics}. One instance per server; thread-safe; close it when done.
 *
 * <p>The bearer key, when given, is sent as {@code Authorization: Bearer …} and appears nowhere else: not in
 * {@link #toString()}, not in exception messages.
 */
public final class MetricsScraper implements AutoCloseable {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);

    /** A vLLM scrape is a few hundred KiB; anything near this is not a metrics page. */
    static final int MAX_BODY_BYTES = 32 << 20;
    private static final int ERROR_BODY_PREVIEW_CHARS = 200;
    /** The classic text format: what SGLang and vLLM serve by default and what the parser reads exactly. */
    private static final String ACCEPT = "text/plain;version=0.0.4;q=1.0,*/*;q=0.1";

    private final URI metricsUri;
    private final Duration timeout;
    private final String bearerKey;
    private final Clock clock;
    private final HttpClient http;

    /**
     * @param metricsUri the full address, e.g. {@code http://127.0.0.1:30000/metrics}
     * @param timeout    for connecting and for the whole answer
     * @param bearerKey  API key sent as a bearer token, if the server wants one
     * @param clock      stamps each snapshot
     */
    public MetricsScraper(URI metricsUri, Duration timeout, Optional<String> bearerKey, Clock clock) {
        this.metricsUri = Objects.requireNonNull(metricsUri, "metricsUri");
        if (!"http".equals(metricsUri.getScheme()) && !"https".equals(metricsUri.getScheme())) {
            throw new IllegalArgumentException("metrics address must be http or https: " + metricsUri);
        }
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout (" + timeout + ") must be positive");
        }
        this.bearerKey = Objects.requireNonNull(bearerKey, "bearerKey").filter(k -> !k.isBlank()).orElse(null);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.http = HttpClient.newBuilder().connectTimeout(timeout).followRedirects(HttpClient.Redirect.NORMAL).build();
    }

    /** A scraper of {@code <baseUrl>/metrics}, the address SGLang, vLLM and the embedded server use. */
    public static MetricsScraper forBaseUrl(URI baseUrl, Optional<String> bearerKey) {
        String base = baseUrl.toString();
        String stripped = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        return new MetricsScraper(URI.create(stripped + "/metrics"), DEFAULT_TIMEOUT, bearerKey, Clock.systemUTC());
    }

    public URI metricsUri() {
        return metricsUri;
    }

    /** One scrape. */
    public MetricsSnapshot scrape() throws MetricsScrapeException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(metricsUri).timeout(timeout).header("Accept", ACCEPT).GET();
        if (bearerKey != null) {
            request.header("Authorization", "Bearer " + bearerKey);
        }
        byte[] body;
        int status;
        Instant at;
        try {
            HttpResponse<InputStream> response = http.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
            // The server renders its counters before it sends the status line; the body follows at once.
            at = clock.instant();
            status = response.statusCode();
            try (InputStream in = response.body()) {
                body = in.readNBytes(MAX_BODY_BYTES + 1);
            }
        } catch (HttpTimeoutException e) {
            throw new MetricsScrapeException("cannot scrape " + metricsUri + ": no answer within " + timeout, e);
        } catch (IOException e) {
            throw new MetricsScrapeException("cannot scrape " + metricsUri + ": " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"), e);
        }
        if (status != 200) {
            throw new MetricsScrapeException("cannot scrape " + metricsUri + ": HTTP " + status + hint(status)
                    + preview(body));
        }
        if (body.length > MAX_BODY_BYTES) {
            throw new MetricsScrapeException("cannot scrape " + metricsUri + ": the answer exceeds "
                    + (MAX_BODY_BYTES >> 20) + " MiB");
        }
        try {
            return new MetricsSnapshot(at, PrometheusText.parse(new String(body, StandardCharsets.UTF_8)));
        } catch (PrometheusFormatException e) {
            throw new MetricsScrapeException(metricsUri + " is not Prometheus text: " + e.getMessage(), e);
        }
    }

    /**
     * Scrapes until two scrapes in a row show the same counters, pausing between them, at most
     * {@code maxScrapes} times. Use it for the scrapes around the measured phase: servers update their
     * counters just after they send a response's last chunk, so a single scrape taken the moment the last
     * response ends can miss the final step.
     */
    public StableScrape scrapeUntilStable(Duration pause, int maxScrapes)
            throws MetricsScrapeException, InterruptedException {
        if (maxScrapes < 2) {
            throw new IllegalArgumentException("maxScrapes (" + maxScrapes + ") must be >= 2 to see the counters settle");
        }
        MetricsSnapshot previous = scrape();
        for (int n = 2; n <= maxScrapes; n++) {
            Thread.sleep(pause);
            MetricsSnapshot next = scrape();
            if (counters(previous).sameValuesAs(counters(next))) {
                return new StableScrape(next, n, true);
            }
            previous = next;
        }
        return new StableScrape(previous, maxScrapes, false);
    }

    private ServerCounters counters(MetricsSnapshot snapshot) throws MetricsScrapeException {
        try {
            return ServerCounters.read(snapshot);
        } catch (IllegalArgumentException e) {
            throw new MetricsScrapeException(metricsUri + ": " + e.getMessage(), e);
        }
    }

    private static String hint(int status) {
        return switch (status) {
            case 404 -> " (no /metrics here; SGLang serves it only with --enable-metrics)";
            case 401, 403 -> " (the server wants an API key, or a different one)";
            default -> "";
        };
    }

    /** The start of an error page, with the key blanked should the server echo request headers. */
    private String preview(byte[] body) {
        String text = new String(body, 0, Math.min(body.length, ERROR_BODY_PREVIEW_CHARS * 4), StandardCharsets.UTF_8)
                .strip().replaceAll("\\s+", " ");
        if (bearerKey != null) {
            text = text.replace(bearerKey, "***");
        }
        if (text.isEmpty()) {
            return "";
        }
        return ": " + (text.length() > ERROR_BODY_PREVIEW_CHARS ? text.substring(0, ERROR_BODY_PREVIEW_CHARS) + "…" : text);
    }

    @Override
    public String toString() {
        return "MetricsScraper[" + metricsUri + ", timeout " + timeout + ", bearer key " + (bearerKey == null ? "none" : "set")
                + "]";
    }

    @Override
    public void close() {
        http.close();
    }
}
