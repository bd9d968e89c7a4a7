package dev.servebench.telemetry.counters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.server.embedded.http.EmbeddedServer;
import dev.servebench.server.embedded.http.ServerSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The whole path against the real embedded HTTP server: scrape, stream requests, scrape, compare with usage. */
class EmbeddedServerCrossCheckTest {

    private static final Pattern USAGE = Pattern.compile("\"usage\":\\{\"prompt_tokens\":(\\d+),\"completion_tokens\":(\\d+)");

    @Test
    void countersOverTheMeasuredPhaseAgreeWithUsage() throws Exception {
        try (CountingEngine engine = new CountingEngine();
             EmbeddedServer server = EmbeddedServer.start(engine, ServerSettings.defaults().withPort(0));
             HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
             MetricsScraper scraper = MetricsScraper.forBaseUrl(URI.create("http://127.0.0.1:" + server.port()),
                     Optional.empty())) {
            long[] warmup = complete(http, server.port(), "warm up", 4);
            assertThat(warmup[1]).isEqualTo(4);

            StableScrape before = scraper.scrapeUntilStable(Duration.ofMillis(20), 10);
            long generated = 0;
            long prompt = 0;
            int requests = 6;
            for (int i = 0; i < requests; i++) {
                long[] usage = complete(http, server.port(), "a prompt of " + "word ".repeat(i) + "words", 8 + 5 * i);
                prompt += usage[0];
                generated += usage[1];
            }
            StableScrape after = scraper.scrapeUntilStable(Duration.ofMillis(20), 10);

            CounterDelta delta = CounterDelta.between(ServerCounters.read(before.snapshot()),
                    ServerCounters.read(after.snapshot()));
            CrossCheckResult result = TokenCrossCheck.compare(delta, generated, prompt, requests,
                    TokenCrossCheck.DEFAULT_TOLERANCE);

            assertThat(before.stable()).isTrue();
            assertThat(after.stable()).isTrue();
            assertThat(result.flavor()).isEqualTo(ServerFlavor.SERVEBENCH_EMBEDDED);
            assertThat(result.verdict()).as(result.lines()).isEqualTo(CrossCheckVerdict.AGREE);
            assertThat(generated).isEqualTo(8 + 13 + 18 + 23 + 28 + 33);
            assertThat(result.check(CounterKind.GENERATED_TOKENS).line()).isEqualTo(String.format(Locale.US,
                    "server counted %d generated tokens, client %d (usage) — agree", generated, generated));
            assertThat(result.check(CounterKind.PROMPT_TOKENS).relativeDifference()).isZero();
            assertThat(result.check(CounterKind.FINISHED_REQUESTS).serverCount()).isEqualTo(6.0);
        }
    }

    /** One streamed completion; returns usage {prompt_tokens, completion_tokens}. */
    private static long[] complete(HttpClient http, int port, String prompt, int maxTokens) throws Exception {
        String body = "{\"model\":\"counting-model\",\"prompt\":\"" + prompt + "\",\"max_tokens\":" + maxTokens
                + ",\"ignore_eos\":true,\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/v1/completions")).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Matcher m = USAGE.matcher(response.body());
        assertThat(m.find()).as("usage in " + response.body()).isTrue();
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }
}
