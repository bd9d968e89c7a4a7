package dev.servebench.server.embedded.http;

import dev.servebench.server.embedded.EngineStats;
import dev.servebench.server.embedded.InferenceEngine;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The server's {@code /metrics}, in Prometheus text format, named after vLLM's where one exists:
 *
 * <table>
 * <tr><th>metric</th><th>type</th><th>labels</th><th>vLLM counterpart</th></tr>
 * <tr><td>servebench_num_requests_running</td><td>gauge</td><td></td><td>vllm:num_requests_running</td></tr>
 * <tr><td>servebench_num_requests_waiting</td><td>gauge</td><td></td><td>vllm:num_requests_waiting</td></tr>
 * <tr><td>servebench_prompt_tokens_total</td><td>counter</td><td></td><td>vllm:prompt_tokens_total</td></tr>
 * <tr><td>servebench_generation_tokens_total</td><td>counter</td><td></td><td>vllm:generation_tokens_total</td></tr>
 * <tr><td>servebench_request_success_total</td><td>counter</td><td>finished_reason = stop | length | abort |
 *     error</td><td>vllm:request_success_total (which has no error value)</td></tr>
 * <tr><td>servebench_http_requests_total</td><td>counter</td><td>endpoint (a served path, or "other"), status
 *     (the code, e.g. "200")</td><td>http_requests_total</td></tr>
 * </table>
 *
 * <p>The first four are read from {@link InferenceEngine#stats()} at scrape time, so they count what the engine
 * did (prompt tokens include the BOS it adds). {@code abort} counts generations the server cancelled because
 * the client went away; {@code error} counts engine errors and streams ended by the server's stop.
 */
final class ServerMetrics {

    static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    /** Bounded label values, so that scanners probing random paths cannot grow the series without bound. */
    static final Set<String> ENDPOINTS = Set.of(Api.COMPLETIONS.path(), Api.CHAT.path(),
            "/v1/models", "/health", "/metrics");

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final Counter finished;
    private final Counter httpRequests;

    ServerMetrics(InferenceEngine engine) {
        gauge(engine, "servebench_num_requests_running", "Generations holding an engine slot.", EngineStats::running);
        gauge(engine, "servebench_num_requests_waiting", "Generations queued for an engine slot.", EngineStats::waiting);
        counter(engine, "servebench_prompt_tokens_total", "Prompt tokens processed, BOS included.",
                EngineStats::promptTokensTotal);
        counter(engine, "servebench_generation_tokens_total", "Tokens generated.", EngineStats::generationTokensTotal);
        finished = Counter.builder().name("servebench_request_success_total")
                .help("Generation requests ended, by finish reason (abort: client gone; error: engine error or stop).")
                .labelNames("finished_reason").register(registry);
        httpRequests = Counter.builder().name("servebench_http_requests_total")
                .help("HTTP requests answered, by endpoint and status code.")
                .labelNames("endpoint", "status").register(registry);
    }

    private void gauge(InferenceEngine engine, String name, String help, ToDoubleFunction<EngineStats> value) {
        GaugeWithCallback.builder().name(name).help(help)
                .callback(cb -> stats(engine, value, cb::call)).register(registry);
    }

    private void counter(InferenceEngine engine, String name, String help, ToDoubleFunction<EngineStats> value) {
        CounterWithCallback.builder().name(name).help(help)
                .callback(cb -> stats(engine, value, cb::call)).register(registry);
    }

    private interface Sample {
        void call(double value, String... labels);
    }

    /** A closed or failing engine leaves the series out of the scrape instead of failing it. */
    private static void stats(InferenceEngine engine, ToDoubleFunction<EngineStats> value, Sample out) {
        EngineStats stats;
        try {
            stats = engine.stats();
        } catch (RuntimeException e) {
            return;
        }
        out.call(value.applyAsDouble(stats));
    }

    void finished(String reason) {
        finished.labelValues(reason).inc();
    }

    void httpRequest(String path, int status) {
        httpRequests.labelValues(ENDPOINTS.contains(path) ? path : "other", Integer.toString(status)).inc();
    }

    byte[] scrape() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(4096);
        try {
            writer.write(out, registry.scrape());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
