package dev.servebench.perf;

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
import dev.servebench.load.RunLimits;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.ServingSummary;
import dev.servebench.metric.SummaryCalculator;
import dev.servebench.record.ErrorLine;
import dev.servebench.record.FailureKind;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RecordSink;
import dev.servebench.results.PointContext;
import dev.servebench.results.PointMeasurement;
import dev.servebench.results.RooflineJson;
import dev.servebench.results.RunDescription;
import dev.servebench.results.SuccessShare;
import dev.servebench.results.SummaryFile;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.PointRoofline;
import dev.servebench.schedule.ArrivalPlan;
import dev.servebench.schedule.ArrivalProcess;
import dev.servebench.spec.LoadPointBounds;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.RandomDatasetSpec;
import dev.servebench.telemetry.MachineSpeedProbe;
import dev.servebench.workload.HfTokenizer;
import dev.servebench.workload.PromptRequest;
import dev.servebench.workload.RandomDataset;
import dev.servebench.workload.WarmupRequests;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Measures a spec's load points against a running server: the one measuring pipeline of the perf suite,
 * {@code servebench check}, {@code servebench compare} and {@code servebench run} (a spec without
 * expectations). One point at a time, so a test engine can judge each point as soon as it is measured, or
 * round robin over the points (the spec's {@code repeat_order}). Before the first point it asks the server for
 * its model and vocabulary and compiles the client's hot path; before each point it opens the point's
 * connections and sends the warm-up requests (a 4xx stops the run); per repeat it writes the point's records
 * (JSONL, streamed) and summary (JSON, atomic, with the point's success share, time-limit cut, connections,
 * warm-up and notes) into the output directory. Before each repeat, with the server idle, it times the
 * {@link MachineSpeedProbe}.
 */
public final class SpecRunner implements AutoCloseable {

    /** Token-id vocabulary of random prompts: the span of ids and the first id. */
    public record Vocabulary(int span, int base) {
        public static final Vocabulary DEFAULT = new Vocabulary(RandomDataset.DEFAULT_VOCAB_SPAN,
                RandomDataset.DEFAULT_ID_BASE);
    }

    /**
     * Sees each measured phase from just after warm-up to just after the last response: where server-side
     * counters are scraped and GPU telemetry is sampled, so they bracket exactly what the client measured.
     */
    public interface RepeatObserver {
        RepeatObserver NONE = new RepeatObserver() {
            @Override
            public void starting(LoadPointKey key, int repeat) {
            }

            @Override
            public void finished(LoadPointKey key, int repeat, LoadPointResult result) {
            }
        };

        void starting(LoadPointKey key, int repeat) throws InterruptedException;

        void finished(LoadPointKey key, int repeat, LoadPointResult result) throws IOException, InterruptedException;
    }

    private final PerformanceSpec spec;
    private final URI baseUrl;
    private final Optional<String> model;
    private final RunOptions options;
    /** The client's hot path is compiled once per runner, before its first load point; what was done, for summaries. */
    private Optional<String> hotPath = Optional.empty();
    private final Path outputDirectory;
    private final String targetKind;
    private final StreamingClient client;
    private final LoadDriver driver;
    private final MachineSpeedProbe probe = new MachineSpeedProbe();
    /** The workload's tokenizer, loaded once per runner. */
    private final Optional<HfTokenizer> tokenizer;
    private final SpecWorkload workload;
    /** How the run was set up (e.g. where the prompts' token ids come from), stated in every summary. */
    private final List<String> notes = new ArrayList<>();
    private final MeasuredHardware measuredHardware;

    /** Client threads of a runner by default: as many as cores, at most 4 (validity checks need the figure). */
    public static final int CLIENT_THREADS = Math.min(4, Runtime.getRuntime().availableProcessors());

    public SpecRunner(PerformanceSpec spec, URI baseUrl, Optional<String> model, Optional<String> apiKey,
            Vocabulary vocabulary, Path outputDirectory, String targetKind) throws IOException {
        this(spec, baseUrl, model, apiKey, vocabulary, outputDirectory, targetKind, MeasuredHardware.NONE);
    }

    public SpecRunner(PerformanceSpec spec, URI baseUrl, Optional<String> model, Optional<String> apiKey,
            Vocabulary vocabulary, Path outputDirectory, String targetKind, MeasuredHardware measuredHardware)
            throws IOException {
        this(spec, baseUrl, model, apiKey, vocabulary, outputDirectory, targetKind, measuredHardware,
                RunOptions.DEFAULTS);
    }

    /**
     * Loads the workload's tokenizer, asks the server for its model and vocabulary ({@code GET /v1/models}),
     * and opens the client.
     *
     * @param model            sent with each request; empty = the server's first model id
     * @param vocabulary       the token ids random prompts are drawn from unless the spec fixes them: the
     *                         defaults, or the ids a started server is known to take; fitted to the vocabulary
     *                         the server states
     * @param targetKind       the summaries' {@code run.target}
     * @param measuredHardware the run's own hardware figures (kernel suite) for the spec's {@code measured}
     *                         hardware entries; {@link MeasuredHardware#NONE} leaves such bounds absent
     * @throws ServerProbe.UnreachableException the server cannot be reached at all
     * @throws dev.servebench.workload.TokenizerException the workload's tokenizer cannot be loaded
     */
    public SpecRunner(PerformanceSpec spec, URI baseUrl, Optional<String> model, Optional<String> apiKey,
            Vocabulary vocabulary, Path outputDirectory, String targetKind, MeasuredHardware measuredHardware,
            RunOptions options) throws IOException {
        this.measuredHardware = Objects.requireNonNull(measuredHardware, "measuredHardware");
        this.spec = Objects.requireNonNull(spec, "spec");
        this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(vocabulary, "vocabulary");
        this.options = Objects.requireNonNull(options, "options");
        this.outputDirectory = Files.createDirectories(outputDirectory);
        this.targetKind = Objects.requireNonNull(targetKind, "targetKind");
        // Before the client: a tokenizer that cannot be loaded must not leave its threads running.
        this.tokenizer = spec.workload().tokenizer().map(HfTokenizer::load);
        ServerProbe.ServerInfo server;
        try {
            server = ServerProbe.describe(baseUrl, apiKey);
        } catch (IOException | RuntimeException e) {
            tokenizer.ifPresent(HfTokenizer::close);
            throw e;
        }
        this.model = model.or(server::model);
        Vocabulary fitted = vocabulary;
        if (SpecWorkload.tokenIdPrompts(spec) && spec.workload().dataset() instanceof RandomDatasetSpec random) {
            fitted = VocabularyFit.resolve(random.tokenIds(), vocabulary, server.vocabSize(), notes);
        }
        this.workload = new SpecWorkload(spec, tokenizer, fitted);
        this.client = new StreamingClient(new ClientConfig(baseUrl, spec.target().backend().endpoint(), apiKey,
                clientThreads(spec), spec.client().stallTimeout(), spec.client().requestTimeout()),
                NanoClock.startingNow());
        this.driver = new LoadDriver(client, tokenizer);
    }

    /** Client event-loop threads measuring {@code spec}: its {@code client.threads}, else {@link #CLIENT_THREADS}. */
    public static int clientThreads(PerformanceSpec spec) {
        return spec.client().threads().orElse(CLIENT_THREADS);
    }

    public PerformanceSpec spec() {
        return spec;
    }

    public Path outputDirectory() {
        return outputDirectory;
    }

    /** Warms up, then measures {@code key} {@code spec.repeats()} times. */
    public PointMeasurement measure(LoadPointKey key) throws IOException, InterruptedException {
        return measure(key, RepeatObserver.NONE);
    }

    /** As {@link #measure(LoadPointKey)}, telling {@code observer} when each measured phase starts and ends. */
    public PointMeasurement measure(LoadPointKey key, RepeatObserver observer) throws IOException, InterruptedException {
        PointInProgress point = start(key);
        for (int repeat = 1; repeat <= spec.repeats(); repeat++) {
            point.measureRepeat(repeat, observer);
        }
        return point.measurement();
    }

    /**
     * Measures {@code keys} round robin ({@link dev.servebench.spec.RepeatOrder#INTERLEAVED}): each point is
     * warmed up just before its first repeat, then round {@code r} measures repeat {@code r} of every point
     * in sweep order. A point that fails is left out of the later rounds with its reason; the others go on.
     */
    public Map<LoadPointKey, PointOutcome> measureInterleaved(List<LoadPointKey> keys, RepeatObserver observer)
            throws InterruptedException {
        Map<LoadPointKey, PointInProgress> running = new LinkedHashMap<>();
        Map<LoadPointKey, PointOutcome> outcomes = new LinkedHashMap<>();
        for (int repeat = 1; repeat <= spec.repeats(); repeat++) {
            for (LoadPointKey key : keys) {
                if (outcomes.containsKey(key)) {
                    continue;
                }
                try {
                    if (repeat == 1) {
                        running.put(key, start(key));
                    }
                    running.get(key).measureRepeat(repeat, observer);
                } catch (IOException | RuntimeException e) {
                    outcomes.put(key, new PointOutcome.Failed(e));
                }
            }
        }
        for (LoadPointKey key : keys) {
            outcomes.computeIfAbsent(key, k -> new PointOutcome.Measured(running.get(k).measurement()));
        }
        return outcomes;
    }

    /**
     * One round of an A/B comparison at {@code key}: warm-up, then one measurement whose arrival seed is the
     * one repeat {@code round} of a normal run uses, so both sides of a round get the same prompts and
     * arrivals. Files are named {@code <point>.round<r>.*}.
     */
    public PointMeasurement measureRound(LoadPointKey key, int round) throws IOException, InterruptedException {
        return prepareRound(key, round).measure();
    }

    /**
     * A round warmed up and ready: its warm-up and machine probe are done, so that a caller can start the
     * measurements of two sides at one instant ({@link CompareRun.Pairing#SIMULTANEOUS}).
     */
    public PreparedRound prepareRound(LoadPointKey key, int round) throws IOException, InterruptedException {
        if (round < 1) {
            throw new IllegalArgumentException("round (" + round + ") must be >= 1");
        }
        PointInProgress point = start(key);
        return new PreparedRound(point, round, probe.sampleMillis());
    }

    /** See {@link #prepareRound}; measured once. */
    public static final class PreparedRound {
        private final PointInProgress point;
        private final int round;
        private final double probeMillis;

        private PreparedRound(PointInProgress point, int round, double probeMillis) {
            this.point = point;
            this.round = round;
            this.probeMillis = probeMillis;
        }

        public PointMeasurement measure() throws IOException, InterruptedException {
            point.measure(round, ".round" + round, RepeatObserver.NONE, probeMillis);
            return point.measurement();
        }
    }

    /**
     * Checks {@code key}, prepares its requests and runs its warm-up.
     *
     * @throws WarmupRejectedException the server rejected a warm-up request (4xx)
     * @throws ClientFailedException    the client itself failed
     */
    private PointInProgress start(LoadPointKey key) throws IOException, InterruptedException {
        if (!spec.sweep().contains(key)) {
            throw new IllegalArgumentException(key + " is not a point of spec " + spec.name() + "'s sweep "
                    + spec.sweep().points());
        }
        LoadPoint point = key.toLoadPoint(spec.sweep().burstiness());
        int prompts = spec.prompts(key);
        List<PromptRequest> rows = workload.dataset(prompts).requests(spec.workload().seed());
        RequestBodies bodies = new RequestBodies(spec.target().backend().endpoint(), model,
                spec.workload().ignoreEos(), spec.workload().extraBody());
        // Bodies are built a window ahead of dispatch, not all before the run: memory stays flat with the count.
        RequestSource measured = RequestSource.lazy(rows.size(), i -> bodies.prepare(i, rows.get(i)));
        List<PreparedRequest> warmup = prepare(bodies, WarmupRequests.of(rows, spec.warmup()).requests());
        List<String> warmed = new ArrayList<>();
        long openedBefore = client.connectionsOpened();
        try {
            warmed.add(warmHotPath());
            ClientWarmup.BeforePoint before = ClientWarmup.beforePoint(driver, point.maxConcurrency(), measured.size(),
                    warmup);
            WarmupCheck.check(point.describe(), before.serverWarmup()).ifPresent(options.listener()::warning);
            warmed.addAll(before.describe());
        } catch (InternalRunError e) {
            throw new ClientFailedException(e);
        }
        String tag = options.tag().orElse("spec:" + spec.name());
        return new PointInProgress(key, point, prompts, measured,
                workload.description(baseUrl.toString(), model, rows.size(), tag, targetKind), warmed,
                client.connectionsOpened() - openedBefore);
    }

    /** Once per runner; a failure is stated, not fatal: only the first wave's accuracy depends on it. */
    private String warmHotPath() throws InterruptedException, InternalRunError {
        if (hotPath.isEmpty()) {
            try {
                hotPath = Optional.of(ClientWarmup.warmHotPath(driver.client().config(),
                        record -> RecordJsonl.toLine(record), tokenizer).describe());
            } catch (RuntimeException e) {
                hotPath = Optional.of("client hot path: NOT warmed (the private loopback server failed: "
                        + ErrorLine.of(e) + ")");
            }
        }
        return hotPath.get();
    }

    /** A warmed-up point and the repeats measured so far. */
    private final class PointInProgress {
        private final LoadPointKey key;
        private final LoadPoint point;
        private final int prompts;
        private final RequestSource measured;
        private final RunDescription description;
        private final List<String> warmed;
        /** Connections the warm-up opened: before the first repeat's clock; later repeats find them open. */
        private long openedBeforeStart;
        private final List<PointMeasurement.Repeat> repeats = new ArrayList<>();
        private final List<Path> files = new ArrayList<>();

        PointInProgress(LoadPointKey key, LoadPoint point, int prompts, RequestSource measured,
                RunDescription description, List<String> warmed, long openedBeforeStart) {
            this.key = key;
            this.point = point;
            this.prompts = prompts;
            this.measured = measured;
            this.description = description;
            this.warmed = List.copyOf(warmed);
            this.openedBeforeStart = openedBeforeStart;
        }

        void measureRepeat(int repeat, RepeatObserver observer) throws IOException, InterruptedException {
            measure(repeat, spec.repeats() > 1 ? ".r" + repeat : "", observer);
        }

        void measure(int repeat, String suffix, RepeatObserver observer) throws IOException, InterruptedException {
            measure(repeat, suffix, observer, probe.sampleMillis());
        }

        void measure(int repeat, String suffix, RepeatObserver observer, double probeMillis)
                throws IOException, InterruptedException {
            String stem = point.label() + suffix;
            ArrivalPlan plan = ArrivalPlan.plan(ArrivalProcess.of(point.requestRate(), point.burstiness()),
                    measured.size(), spec.workload().seed() + repeat - 1);
            Path recordsFile = outputDirectory.resolve(stem + ".records.jsonl");
            LoadPointResult result;
            observer.starting(key, repeat);
            long openedAtStart = client.connectionsOpened();
            long retriesBefore = client.staleConnectionRetries();
            long skippedBefore = client.staleConnectionsSkipped();
            try (RecordSink sink = new RecordSink(recordsFile, client::reportInternalError)) {
                result = driver.run(measured, plan.toArray(), point.maxConcurrency(), sink::accept,
                        options.listener().progress(point), new RunLimits(spec.sweep().maxDuration()));
            } catch (InternalRunError e) {
                throw new ClientFailedException(e);
            }
            ServingSummary summary;
            SuccessShare share;
            String firstFailure;
            try (result) {
                observer.finished(key, repeat, result);
                summary = SummaryCalculator.compute(result.store(), result.durationNanos(), workload.metricOptions());
                int cancelled = summary.failuresByKind().getOrDefault(FailureKind.CANCELLED, 0);
                share = new SuccessShare(summary.requests(), result.store().successes(), cancelled,
                        spec.validity().minCompleted());
                firstFailure = result.store().firstFailure().orElse("(none)");
            }
            PointContext context = new PointContext(share, result.cut(), new ConnectionCounts(openedBeforeStart,
                    client.connectionsOpened() - openedAtStart, client.staleConnectionRetries() - retriesBefore,
                    client.staleConnectionsSkipped() - skippedBefore), warmed, notes);
            openedBeforeStart = 0;
            Path summaryFile = outputDirectory.resolve(stem + ".summary.json");
            Optional<RooflineJson> roofline = spec.deployment().map(deployment -> RooflineJson.of(deployment,
                    PointRoofline.of(LoadPointBounds.at(spec, key, measuredHardware),
                            summary.value(MetricId.OUTPUT_THROUGHPUT), summary.value(MetricId.MEAN_ITL_MS))));
            SummaryFile.of(description, point, summary, result.clientUsage(), context, roofline).write(summaryFile);
            repeats.add(new PointMeasurement.Repeat(summary, result.clientUsage(), result.durationNanos(),
                    probeMillis));
            files.add(summaryFile);
            files.add(recordsFile);
            options.listener().measured(new MeasuredRepeat(key, repeat, description, point, summary,
                    result.clientUsage(), context, firstFailure));
        }

        PointMeasurement measurement() {
            return new PointMeasurement(key, prompts, repeats, files);
        }
    }

    private static List<PreparedRequest> prepare(RequestBodies bodies, List<PromptRequest> rows) {
        List<PreparedRequest> prepared = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            prepared.add(bodies.prepare(i, rows.get(i)));
        }
        return prepared;
    }

    @Override
    public void close() {
        client.close();
        tokenizer.ifPresent(HfTokenizer::close);
    }
}
