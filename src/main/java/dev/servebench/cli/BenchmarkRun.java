package dev.servebench.cli;

import dev.servebench.client.ClientConfig;
import dev.servebench.client.NanoClock;
import dev.servebench.client.PreparedRequest;
import dev.servebench.client.RequestBodies;
import dev.servebench.client.RequestSource;
import dev.servebench.client.StreamingClient;
import dev.servebench.load.ClientWarmup;
import dev.servebench.load.ConnectionCounts;
import dev.servebench.load.InternalRunError;
import dev.servebench.load.LoadDriver;
import dev.servebench.load.LoadPoint;
import dev.servebench.load.LoadPointResult;
import dev.servebench.load.LoadProgress;
import dev.servebench.load.RunLimits;
import dev.servebench.metric.DatasetPromptLengths;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.record.ErrorLine;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RecordSink;
import dev.servebench.record.RequestRecord;
import dev.servebench.report.ConsoleSummary;
import dev.servebench.results.PointContext;
import dev.servebench.results.RunDescription;
import dev.servebench.results.SummaryJson;
import dev.servebench.schedule.ArrivalPlan;
import dev.servebench.schedule.ArrivalProcess;
import dev.servebench.logging.LogFile;
import dev.servebench.server.EmbeddedTarget;
import dev.servebench.results.SuccessShare;
import dev.servebench.workload.Dataset;
import dev.servebench.workload.HfTokenizer;
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
    static final int BAD_INPUT = 2;
    static final int INVALID_POINT = 3;
    static final int INTERNAL_ERROR = InternalErrorReport.EXIT_CODE;

    /** Stops the run: every measured request would fail as the warm-up did. */
    private static final class WarmupRejected extends Exception {
        WarmupRejected(String message) {
            super(message);
        }
    }

    private RunSettings settings;
    private Path dir;
    private final PrintWriter out;
    private final PrintWriter err;
    private final List<String> runNotes = new ArrayList<>();
    private final List<String> warmed = new ArrayList<>();
    private Optional<HfTokenizer> tokenizer = Optional.empty();

    BenchmarkRun(RunSettings settings, PrintWriter out, PrintWriter err) {
        this.settings = settings;
        this.out = out;
        this.err = err;
    }

    int execute() throws IOException, InterruptedException {
        // First: a tokenizer that cannot be loaded is bad input, found before any server starts.
        tokenizer = settings.tokenizer().map(HfTokenizer::load);
        try {
            return executeWithTokenizer();
        } finally {
            tokenizer.ifPresent(HfTokenizer::close);
        }
    }

    private int executeWithTokenizer() throws IOException, InterruptedException {
        dir = settings.outputDir().orElseGet(() -> Path.of("reports", "runs",
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))));
        // Before the embedded server starts: its (and the client's) library logging lands beside the results.
        Files.createDirectories(dir);
        LogFile.beside(dir);
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
            RunSettings resolved = settings.guards().vocabularyGiven() ? settings : settings.withVocabulary(
                    target.vocabSize() - EmbeddedTarget.FIRST_ORDINARY_TOKEN, EmbeddedTarget.FIRST_ORDINARY_TOKEN);
            return execute(target.baseUrl(), resolved);
        }
    }

    private int execute(URI baseUrl, RunSettings resolved) throws IOException, InterruptedException {
        this.settings = resolved;
        ServerProbe.ServerInfo server;
        try {
            server = ServerProbe.describe(baseUrl, settings.apiKey());
        } catch (ServerProbe.UnreachableException e) {
            err.println("servebench: " + e.getMessage());
            return UNREACHABLE;
        }
        Optional<String> model = settings.model().or(server::model);
        settings = VocabularyFit.resolve(settings, server.vocabSize(), runNotes);
        List<PromptRequest> rows = dataset().requests(settings.seed());
        RequestBodies bodies = new RequestBodies(settings.backend().endpoint(), model, settings.ignoreEos(),
                settings.extraBody());
        // Bodies are built a window ahead of dispatch, not all before the run: memory stays flat with the count.
        RequestSource measured = RequestSource.lazy(rows.size(), i -> bodies.prepare(i, rows.get(i)));
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
                settings.clientThreads(), settings.stallTimeout(), settings.guards().requestTimeout());
        try (StreamingClient client = new StreamingClient(config, NanoClock.startingNow())) {
            try {
                warmed.add(ClientWarmup.warmHotPath(config, record -> RecordJsonl.toLine(record), tokenizer).describe());
            } catch (RuntimeException e) {
                // Only the first wave's accuracy depends on it: say so and measure anyway.
                warmed.add("client hot path: NOT warmed (the private loopback server failed: "
                        + ErrorLine.of(e) + ")");
            }
            // With a tokenizer every successful request's generated text is re-counted (SGLang's retokenized metrics).
            LoadDriver driver = new LoadDriver(client, tokenizer);
            for (LoadPoint point : loadPoints()) {
                if (!runPoint(driver, point, measured, warmup, description, dir)) {
                    status = INVALID_POINT;
                }
            }
        } catch (WarmupRejected e) {
            err.println("servebench: " + e.getMessage());
            return BAD_INPUT;
        } catch (InternalRunError e) {
            return InternalErrorReport.report(err, e.getMessage() + "; the run stopped, records written so far are in "
                    + dir.toAbsolutePath(), e.getCause());
        }
        out.println("Results in " + dir.toAbsolutePath());
        out.flush();
        return status;
    }

    /** Measures one load point; returns whether it is valid. */
    private boolean runPoint(LoadDriver driver, LoadPoint point, RequestSource measured,
                             List<PreparedRequest> warmup, RunDescription description, Path dir)
            throws IOException, InterruptedException, WarmupRejected, InternalRunError {
        StreamingClient client = driver.client();
        long openedBefore = client.connectionsOpened();
        ClientWarmup.BeforePoint before = ClientWarmup.beforePoint(driver, point.maxConcurrency(), measured.size(),
                warmup);
        checkWarmup(point, before.serverWarmup());
        List<String> pointWarmed = new ArrayList<>(warmed);
        pointWarmed.addAll(before.describe());
        ArrivalPlan plan = ArrivalPlan.plan(ArrivalProcess.of(point.requestRate(), point.burstiness()),
                measured.size(), settings.seed());
        LoadProgress progress = settings.progress() ? new ProgressBar(err, point.describe(), ProgressBar.stderrIsTerminal()) : LoadProgress.NONE;
        Path recordsFile = dir.resolve(point.label() + ".records.jsonl");
        long openedAtStart = client.connectionsOpened();
        long retriesBefore = client.staleConnectionRetries();
        long skippedBefore = client.staleConnectionsSkipped();
        LoadPointResult result;
        try (RecordSink sink = new RecordSink(recordsFile, client::reportInternalError)) {
            result = driver.run(measured, plan.toArray(), point.maxConcurrency(), sink::accept, progress,
                    new RunLimits(settings.guards().maxDuration()));
        }
        ServingSummary summary;
        SuccessShare share;
        String firstFailure;
        try (result) {
            summary = SummaryCalculator.compute(result.store(), result.durationNanos(), settings.metricOptions()
                    .withPromptLengths(promptLengths()).withRetokenizedOutput(tokenizer.isPresent()));
            int cancelled = summary.failuresByKind().getOrDefault(FailureKind.CANCELLED, 0);
            share = new SuccessShare(summary.requests(), result.store().successes(), cancelled,
                    settings.guards().minSuccessRate());
            firstFailure = result.store().firstFailure().orElse("(none)");
        }
        PointContext context = new PointContext(share, result.cut(), new ConnectionCounts(
                openedAtStart - openedBefore, client.connectionsOpened() - openedAtStart,
                client.staleConnectionRetries() - retriesBefore, client.staleConnectionsSkipped() - skippedBefore),
                pointWarmed, runNotes);
        out.print(ConsoleSummary.render(description, point, summary, result.clientUsage(), Optional.of(context)));
        out.flush();
        SummaryJson.write(dir.resolve(point.label() + ".summary.json"), description, point, summary,
                result.clientUsage(), context);
        if (!share.valid()) {
            err.println("servebench: " + point.describe() + ": " + share.describe() + "; first error: "
                    + firstFailure);
        }
        return share.valid();
    }

    /**
     * A warm-up request the server rejects (4xx) means every measured request would be rejected the same way:
     * stop at once with the server's message, as SGLang's own client does. Other warm-up failures are reported
     * and the load point's validity decides.
     */
    private void checkWarmup(LoadPoint point, List<RequestRecord> records) throws WarmupRejected {
        for (RequestRecord record : records) {
            if (record.outcome() instanceof Outcome.Failure failure && failure.kind() == FailureKind.HTTP_STATUS
                    && failure.httpStatus() >= 400 && failure.httpStatus() < 500) {
                throw new WarmupRejected("the server rejected the warm-up request at " + point.describe() + " ("
                        + failure.reason() + "); every measured request would fail the same way. "
                        + "Check --backend, --model, the prompt settings (--random-vocab-span, "
                        + "--random-token-id-base, --prompt-format) and --extra-request-body");
            }
        }
        if (!records.isEmpty() && records.stream().noneMatch(RequestRecord::succeeded)) {
            err.println("servebench: warm-up at " + point.describe() + ": all " + records.size()
                    + " request(s) failed, first error: " + firstError(records));
        }
    }

    private static String firstError(List<RequestRecord> records) {
        return records.stream().map(RequestRecord::outcome)
                .filter(o -> o instanceof Outcome.Failure)
                .map(o -> ((Outcome.Failure) o).kind() + ": " + ((Outcome.Failure) o).reason())
                .findFirst().orElse("(none)");
    }

    private Dataset dataset() {
        if (settings.datasetName().equals("sharegpt")) {
            ShareGptDataset plain = ShareGptDataset.of(settings.datasetPath().orElseThrow(), settings.numPrompts());
            ShareGptDataset sharegpt = tokenizer.map(plain::withTokenizer).orElse(plain);
            return settings.sharegptOutputLen().map(sharegpt::withFixedOutputLen).orElse(sharegpt);
        }
        RandomDataset random = RandomDataset.of(settings.numPrompts(), settings.randomInputLen(),
                        settings.randomOutputLen(), settings.randomRangeRatio())
                .withFormat(settings.tokenIdPrompts() ? RandomDataset.PromptFormat.TOKEN_IDS : RandomDataset.PromptFormat.TEXT)
                .withVocabulary(settings.vocabSpan(), settings.tokenIdBase());
        return tokenizer.map(random::withTokenizer).orElse(random);
    }

    /** Token ids are exact; text is counted by the tokenizer when there is one, else estimated. */
    private DatasetPromptLengths promptLengths() {
        if (settings.tokenIdPrompts()) {
            return DatasetPromptLengths.EXACT;
        }
        return tokenizer.isPresent() ? DatasetPromptLengths.TOKENIZED : DatasetPromptLengths.ESTIMATED;
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
