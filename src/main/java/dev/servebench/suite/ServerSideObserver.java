package dev.servebench.suite;

import dev.servebench.load.LoadPointResult;
import dev.servebench.perf.SpecRunner;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.telemetry.TelemetryJson;
import dev.servebench.telemetry.gpu.GpuSampler;
import dev.servebench.telemetry.gpu.GpuTelemetry;
import dev.servebench.telemetry.gpu.GpuTelemetryOptions;
import dev.servebench.telemetry.gpu.GpuTelemetryReport;
import dev.servebench.telemetry.gpu.GpuTelemetryStart;
import dev.servebench.telemetry.counters.ClientTotals;
import dev.servebench.telemetry.counters.CounterDelta;
import dev.servebench.telemetry.counters.CrossCheckResult;
import dev.servebench.telemetry.counters.MetricsScrapeException;
import dev.servebench.telemetry.counters.MetricsScraper;
import dev.servebench.telemetry.counters.MetricsSnapshot;
import dev.servebench.telemetry.counters.ServerCounters;
import dev.servebench.telemetry.counters.TokenCrossCheck;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Brackets each measured phase with a {@code /metrics} scrape (server-counted tokens vs the client's) and,
 * where {@code nvidia-smi} exists, GPU sampling. Results go to the run directory and, per point, to the
 * suite's cross-check test and Allure.
 */
final class ServerSideObserver implements SpecRunner.RepeatObserver {

    /** What the server side saw of a point's last repeat. */
    record Observation(Optional<CrossCheckResult> crossCheck, String crossCheckNote,
            Optional<GpuTelemetryReport> gpu, String gpuNote) {
    }

    private final MetricsScraper scraper;
    private final Path output;
    private final Map<LoadPointKey, Observation> observations = new ConcurrentHashMap<>();
    private MetricsSnapshot before;
    private String beforeFailure;
    private GpuSampler sampler;
    private String gpuUnavailable;

    private final int repeats;

    ServerSideObserver(URI baseUrl, Optional<String> apiKey, Path output, int repeats) {
        this.scraper = MetricsScraper.forBaseUrl(baseUrl, apiKey);
        this.output = output;
        this.repeats = repeats;
    }

    @Override
    public void starting(LoadPointKey key, int repeat) throws InterruptedException {
        try {
            before = scraper.scrape();
            beforeFailure = null;
        } catch (MetricsScrapeException e) {
            before = null;
            beforeFailure = e.getMessage();
        }
        switch (GpuTelemetry.start(GpuTelemetryOptions.defaults())) {
            case GpuTelemetryStart.Started started -> {
                sampler = started.running();
                gpuUnavailable = null;
            }
            case GpuTelemetryStart.Unavailable unavailable -> {
                sampler = null;
                gpuUnavailable = unavailable.reason();
            }
        }
    }

    @Override
    public void finished(LoadPointKey key, int repeat, LoadPointResult result) throws IOException, InterruptedException {
        Optional<GpuTelemetryReport> gpu = Optional.ofNullable(sampler).map(GpuSampler::stop);
        Optional<CrossCheckResult> crossCheck = Optional.empty();
        String note;
        if (before == null) {
            note = "no server counters: " + beforeFailure;
        } else {
            try {
                MetricsSnapshot after = scraper.scrapeUntilStable(Duration.ofMillis(200), 10).snapshot();
                CrossCheckResult check = TokenCrossCheck.compare(CounterDelta.between(ServerCounters.read(before),
                        ServerCounters.read(after)), ClientTotals.fromRecords(result.records()),
                        TokenCrossCheck.DEFAULT_TOLERANCE);
                crossCheck = Optional.of(check);
                note = check.lines();
            } catch (MetricsScrapeException e) {
                note = "no server counters after the point: " + e.getMessage();
            }
        }
        // Named like the point's summary and records files of the same repeat.
        String stem = key.toLoadPoint(1.0).label() + (repeats > 1 ? ".r" + repeat : "");
        if (crossCheck.isPresent()) {
            TelemetryJson.write(output.resolve(stem + ".server-counters.json"), crossCheck.get());
        }
        if (gpu.isPresent()) {
            TelemetryJson.write(output.resolve(stem + ".gpu.json"), gpu.get());
        }
        observations.put(key, new Observation(crossCheck, note, gpu,
                gpu.map(GpuTelemetryReport::lines).orElse(gpuUnavailable == null ? "" : gpuUnavailable)));
    }

    Optional<Observation> observation(LoadPointKey key) {
        return Optional.ofNullable(observations.get(key));
    }
}
