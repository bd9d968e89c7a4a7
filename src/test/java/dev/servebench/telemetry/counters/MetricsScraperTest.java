package dev.servebench.telemetry.counters;

import static dev.servebench.telemetry.counters.CounterKind.GENERATED_TOKENS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.servebench.telemetry.ScrapeFixtures;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class MetricsScraperTest {

    private static final String KEY = "sk-test-do-not-leak";
    private static final Clock FIXED = Clock.fixed(Instant.parse("2026-12-02T15:10:00Z"), ZoneOffset.UTC);

    private HttpServer server;
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final List<String> accepts = new CopyOnWriteArrayList<>();
    private final AtomicInteger scrapes = new AtomicInteger();

    /** Serves /metrics: the n-th request (1-based) gets status and body from the function. */
    private URI serve(int status, IntFunction<String> body) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/metrics", exchange -> {
            authorizations.add(String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")));
            accepts.add(String.valueOf(exchange.getRequestHeaders().getFirst("Accept")));
            byte[] bytes = body.apply(scrapes.incrementAndGet()).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
            exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private static MetricsScraper scraper(URI base, Optional<String> key) {
        return new MetricsScraper(base.resolve("/metrics"), Duration.ofSeconds(5), key, FIXED);
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void scrapesAndParsesWithTheBearerKey() throws Exception {
        URI base = serve(200, n -> ScrapeFixtures.vllmV1(8192, 1000, 60, 4, 0));
        try (MetricsScraper scraper = scraper(base, Optional.of(KEY))) {
            MetricsSnapshot snapshot = scraper.scrape();

            assertThat(snapshot.at()).isEqualTo(FIXED.instant());
            assertThat(ServerCounters.read(snapshot).reading(GENERATED_TOKENS).orElseThrow().total()).isEqualTo(8192.0);
            assertThat(authorizations).containsExactly("Bearer " + KEY);
            assertThat(accepts.getFirst()).startsWith("text/plain;version=0.0.4");
            assertThat(scraper.toString()).doesNotContain(KEY).contains("bearer key set");
        }
    }

    @Test
    void forBaseUrlAppendsMetricsAndSendsNoKeyWhenNoneIsGiven() throws Exception {
        URI base = serve(200, n -> "up 1\n");
        try (MetricsScraper scraper = MetricsScraper.forBaseUrl(URI.create(base + "/"), Optional.empty())) {
            assertThat(scraper.metricsUri()).isEqualTo(base.resolve("/metrics"));
            assertThat(scraper.scrape().samples()).hasSize(1);
            assertThat(authorizations).containsExactly("null");
        }
    }

    @Test
    void aMissingEndpointExplainsItselfWithoutTheKey() throws Exception {
        URI base = serve(404, n -> "Not Found: " + KEY);
        try (MetricsScraper scraper = scraper(base, Optional.of(KEY))) {
            assertThatThrownBy(scraper::scrape)
                    .isInstanceOf(MetricsScrapeException.class)
                    .hasMessage("cannot scrape " + base + "/metrics: HTTP 404 (no /metrics here; SGLang serves it only"
                            + " with --enable-metrics): Not Found: ***");
        }
    }

    @Test
    void aPageThatIsNotPrometheusTextNamesTheLine() throws Exception {
        URI base = serve(200, n -> "up 1\n<html>oops</html>\n");
        try (MetricsScraper scraper = scraper(base, Optional.empty())) {
            assertThatThrownBy(scraper::scrape)
                    .isInstanceOf(MetricsScrapeException.class)
                    .hasMessageStartingWith(base + "/metrics is not Prometheus text: line 2, column 1:");
        }
    }

    @Test
    void anUnreachableServerIsAScrapeFailure() throws Exception {
        URI base = serve(200, n -> "up 1\n");
        server.stop(0);
        server = null;
        try (MetricsScraper scraper = scraper(base, Optional.of(KEY))) {
            assertThatThrownBy(scraper::scrape)
                    .isInstanceOf(MetricsScrapeException.class)
                    .hasMessageStartingWith("cannot scrape " + base + "/metrics: ")
                    .hasMessageNotContaining(KEY);
        }
    }

    @Test
    void scrapesUntilTheCountersStopMoving() throws Exception {
        // the server is still recording the last step for the first three scrapes
        URI base = serve(200, n -> ScrapeFixtures.embedded(8000 + 64 * Math.min(n, 3), 500, 64, 0));
        try (MetricsScraper scraper = scraper(base, Optional.empty())) {
            StableScrape stable = scraper.scrapeUntilStable(Duration.ofMillis(1), 10);

            assertThat(stable.stable()).isTrue();
            assertThat(stable.scrapes()).isEqualTo(4);
            assertThat(ServerCounters.read(stable.snapshot()).reading(GENERATED_TOKENS).orElseThrow().total())
                    .isEqualTo(8192.0);
        }
    }

    @Test
    void givesUpWhenTheCountersNeverSettle() throws Exception {
        URI base = serve(200, n -> ScrapeFixtures.embedded(n, 1, 1, 0));
        try (MetricsScraper scraper = scraper(base, Optional.empty())) {
            StableScrape unstable = scraper.scrapeUntilStable(Duration.ofMillis(1), 3);

            assertThat(unstable.stable()).isFalse();
            assertThat(unstable.scrapes()).isEqualTo(3);
            assertThat(ServerCounters.read(unstable.snapshot()).reading(GENERATED_TOKENS).orElseThrow().total())
                    .isEqualTo(3.0);
        }
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> new MetricsScraper(URI.create("ftp://h/metrics"), Duration.ofSeconds(1),
                Optional.empty(), FIXED)).hasMessageContaining("http or https");
        assertThatThrownBy(() -> new MetricsScraper(URI.create("http://h/metrics"), Duration.ZERO, Optional.empty(),
                FIXED)).hasMessageContaining("must be positive");
    }
}
