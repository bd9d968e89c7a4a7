package dev.servebench.cli;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.StreamingClient;
import dev.servebench.load.LoadDriver;
import dev.servebench.load.LoadPoint;
import dev.servebench.load.LoadPointResult;
import dev.servebench.load.LoadProgress;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.record.RecordSink;
import dev.servebench.report.ConsoleSummary;
import dev.servebench.report.RunDescription;
import dev.servebench.report.SummaryJson;
import dev.servebench.schedule.ArrivalPlan;
import dev.servebench.schedule.ArrivalProcess;
import dev.servebench.target.EmbeddedTarget;
import dev.servebench.workload.Dataset;
import dev.servebench.workload.PromptRequest;
import dev.servebench.workload.RandomDataset;
import dev.servebench.workload.ShareGptDataset;
import dev.servebench.workload.WarmupRequests;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Executes a {@link RunSettings}: probe, then for each load point warm up, measure, summarise, write. */
final class BenchmarkRun {

    /** Exit codes, documented in the README. */
    static final int OK = 0;
    static final int UNREACHABLE = 2;
    static final int NO_SUCCESSFUL_REQUEST = 3;

    private RunSettings settings;
    private final PrintWriter out;
    private final PrintWriter err;

    BenchmarkRun(RunSettings settings, PrintWriter out, PrintWriter err) {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    int execute() throws IOException, InterruptedException {
        if (settings.baseUrl().isPresent()) {
            return execute(URI.create(settings.baseUrl().get()), settings);
        }
        // No server named: measure the embedded engine, started here on a free loopback port.
        int slots = settings.embeddedSlotCount();
        int contextPerSlot = settings.randomInputLen() + settings.randomOutputLen() + 1;
        err.println("servebench: no --base-url: starting the embedded MoE engine (" + settings.embeddedWeights().label()
                + ", " + slots + " slots, " + contextPerSlot + " tokens each)");
        err.flush();
        try (EmbeddedTarget target = EmbeddedTarget.start(new EmbeddedTarget.Options("127.0.0.1", 0, slots,
                contextPerSlot, settings.embeddedWeights(), 1, false))) {
            return execute(target.baseUrl(), settings.withVocabulary(
                    target.vocabSize() - EmbeddedTarget.FIRST_ORDINARY_TOKEN, EmbeddedTarget.FIRST_ORDINARY_TOKEN));
        }
    }

    private int execute(URI baseUrl, RunSettings resolved) throws IOException, InterruptedException {
        this.settings = resolved;
        Optional<String> model;
        try {
            Optional<String> served = ServerProbe.firstModel(baseUrl, settings.apiKey());
            model = settings.model().or(() -> served);
        } catch (ServerProbe.UnreachableException e) {
            err.println("servebench: " + e.getMessage());
            return UNREACHABLE;
        }
        Path dir = settings.outputDir().orElseGet(() -> Path.of("reports", "runs",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        Files.createDirectories(dir);
        List<PromptRequest> rows = dataset().requests(settings.seed());
        RequestBodies bodies = new RequestBodies(settings.backend().endpoint(), model, settings.ignoreEos(),
                settings.extraBody());
        List<PreparedRequest> measured = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            measured.add(bodies.prepare(i, rows.get(i)));
        }
        List<PreparedRequest> warmup = new ArrayList<>();
        List<PromptRequest> warmupRows = WarmupRequests.of(rows, settings.warmupRequests()).requests();
        for (int i = 0; i < warmupRows.size(); i++) {
            warmup.add(bodies.prepare(i, warmupRows.get(i)));
        }
        RunDescription description = new RunDescription(baseUrl.toString(), settings.backend().cliName(),
                model.orElse(""), settings.datasetName(), settings.randomInputLen(), settings.randomOutputLen(),
                settings.randomRangeRatio(), rows.size(), settings.seed(), settings.tokenIdPrompts(),
                settings.metricOptions().tokenSource(), settings.tag().orElse(""),
                settings.baseUrl().isPresent() ? "url" : "embedded");
        int status = OK;
        ClientConfig config = new ClientConfig(baseUrl, settings.backend().endpoint(), settings.apiKey(),
                settings.clientThreads(), settings.stallTimeout());
        try (StreamingClient client = new StreamingClient(config, NanoClock.startingNow())) {
            LoadDriver driver = new LoadDriver(client);
            for (LoadPoint point : loadPoints()) {
                if (!runPoint(driver, point, measured, warmup, description, dir)) {
                    status = NO_SUCCESSFUL_REQUEST;
                }
            }
        }
        out.println("Results in " + dir.toAbsolutePath());
        out.flush();
        return status;
    }

    private boolean runPoint(LoadDriver driver, LoadPoint point, List<PreparedRequest> measured,
                             List<PreparedRequest> warmup, RunDescription description, Path dir)
            throws IOException, InterruptedException {
        if (!warmup.isEmpty()) {
            try (LoadPointResult warm = driver.run(warmup, new long[warmup.size()], point.maxConcurrency(), r -> { },
                    LoadProgress.NONE)) {
                if (warm.store().successes() == 0) {
                    err.println("servebench: warmup at " + point.describe() + ": all " + warmup.size()
                            + " requests failed, first error: " + warm.store().firstFailure().orElse("(none)")
                            + " (measuring anyway)");
                }
            }
        }
        ArrivalPlan plan = ArrivalPlan.plan(ArrivalProcess.of(point.requestRate(), point.burstiness()),
                measured.size(), settings.seed());
        LoadProgress progress = settings.progress() ? new ProgressBar(err, point.describe(), ProgressBar.stderrIsTerminal()) : LoadProgress.NONE;
        Path recordsFile = dir.resolve(point.label() + ".records.jsonl");
        LoadPointResult result;
        try (RecordSink sink = new RecordSink(recordsFile)) {
            result = driver.run(measured, plan.toArray(), point.maxConcurrency(), sink::accept, progress);
        }
        ServingSummary summary;
        boolean anySucceeded;
        try (result) {
            summary = SummaryCalculator.compute(result.store(), result.durationNanos(), settings.metricOptions());
            anySucceeded = result.store().successes() > 0;
        }
        out.print(ConsoleSummary.render(description, point, summary, result.clientUsage()));
        out.flush();
        SummaryJson.write(dir.resolve(point.label() + ".summary.json"), description, point, summary,
                result.clientUsage());
        return anySucceeded;
    }

    private Dataset dataset() {
        if (settings.datasetName().equals("sharegpt")) {
            ShareGptDataset sharegpt = ShareGptDataset.of(settings.datasetPath().orElseThrow(), settings.numPrompts());
            return settings.sharegptOutputLen().map(sharegpt::withFixedOutputLen).orElse(sharegpt);
        }
        return RandomDataset.of(settings.numPrompts(), settings.randomInputLen(), settings.randomOutputLen(),
                        settings.randomRangeRatio())
                .withFormat(settings.tokenIdPrompts() ? RandomDataset.PromptFormat.TOKEN_IDS : RandomDataset.PromptFormat.TEXT)
                .withVocabulary(settings.vocabSpan(), settings.tokenIdBase());
    }

    private List<LoadPoint> loadPoints() {
        List<LoadPoint> points = new ArrayList<>();
        List<Integer> caps = settings.maxConcurrencies().isEmpty() ? List.of(0) : settings.maxConcurrencies();
        for (double rate : settings.requestRates()) {
            for (int cap : caps) {
                points.add(new LoadPoint(cap, rate, settings.burstiness()));
            }
        }
        return points;
    }
}
