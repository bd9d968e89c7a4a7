package dev.servebench.suite;

import dev.servebench.logging.LogFile;
import dev.servebench.metric.MetricId;
import dev.servebench.perf.PointOutcome;
import dev.servebench.perf.RunMeasurementsJson;
import dev.servebench.telemetry.RunEnvironment;
import dev.servebench.perf.SpecRunner;
import dev.servebench.report.RunSummary;
import dev.servebench.results.PointMeasurement;
import dev.servebench.results.RunVerdictsJson;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.server.CacheReset;
import dev.servebench.server.ServerUnderTest;
import dev.servebench.server.container.DockerAvailability;
import dev.servebench.spec.ContainerTargetSpec;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.RepeatOrder;
import dev.servebench.telemetry.gpu.GpuInventory;
import dev.servebench.telemetry.gpu.PhaseEnergy;
import dev.servebench.verdict.PointValidity;
import dev.servebench.verdict.ValidityCheck;
import org.junit.jupiter.api.Assumptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The server and client of one suite run: started by the first "measure" test (so a server that fails to
 * start fails that test with its log), closed when JUnit closes the factory's stream: after the last test,
 * which is when it prints the run's console summary.
 */
final class SuiteSession implements AutoCloseable {

    private final PerformanceSpec spec;
    private final SuiteSettings settings;
    private final Path output;
    private ServerUnderTest server;
    private SpecRunner runner;
    private ServerSideObserver observer;
    private RunMeasurementsJson measurements;
    private String startFailure;
    private final RunVerdictsJson verdicts;
    private final MeasuredPoints points;
    private Map<LoadPointKey, PointOutcome> interleaved;
    private CacheReset interleavedReset;
    private final SuiteKernels kernelRun;
    private KernelMeasurements kernels;
    /**
     * The run's own hardware figures for the spec's {@code measured} hardware entries: the figures.json of this
     * run's kernel run (the directory kernel expectations read), else none, and bounds that need them are
     * absent with the reason.
     */
    private final MeasuredHardware measuredHardware;

    /**
     * {@code kernels}: this run's kernel run (or why there is none), read once for the kernel lines;
     * {@code measuredHardware}: the figures {@code points} computes its bounds from, read once per run.
     */
    SuiteSession(PerformanceSpec spec, SuiteSettings settings, Path output, MeasuredPoints points,
                 SuiteKernels kernelRun, MeasuredHardware measuredHardware) throws IOException {
        this.spec = spec;
        this.points = points;
        this.settings = settings;
        this.output = output;
        // The suite's library logging (embedded server, Testcontainers, client) lands beside its results.
        Files.createDirectories(output);
        LogFile.beside(output);
        this.verdicts = new RunVerdictsJson(output.resolve("verdicts.json"), spec.name());
        this.kernelRun = kernelRun;
        this.measuredHardware = measuredHardware;
    }

    /** The figures of this run's kernel run, read once, or why there are none. */
    synchronized KernelMeasurements kernelMeasurements() throws IOException {
        if (kernels == null) {
            kernels = kernelRun.measurements();
        }
        return kernels;
    }

    /** Appends a judged test's outcome to the run's verdicts.json. */
    void verdict(RunVerdictsJson.Entry entry) throws IOException {
        verdicts.add(entry);
    }

    void measure(LoadPointKey key, MeasuredPoints points) throws Exception {
        SuiteAllure.pointLabels(spec, key);
        if (spec.target() instanceof ContainerTargetSpec && !DockerAvailability.available()) {
            // Not a failure of the server under test: this machine cannot run its container.
            points.failed(key, "container target skipped: " + DockerAvailability.reason());
            Assumptions.abort("container target " + ((ContainerTargetSpec) spec.target()).image() + " skipped: "
                    + DockerAvailability.reason());
        }
        try {
            PointMeasurement measurement;
            CacheReset reset;
            if (spec.repeatOrder() == RepeatOrder.INTERLEAVED) {
                measurement = measuredInterleaved(key);
                reset = interleavedReset;
            } else {
                SpecRunner started = start();
                reset = server.resetCache();
                measurement = started.measure(key, observer);
            }
            List<ValidityCheck> validity = PointValidity.check(measurement, spec.validity(),
                    SpecRunner.clientThreads(spec));
            points.measured(key, measurement, validity);
            measurements.add(measurement, PointValidity.valid(validity), observer.observation(key)
                    .flatMap(ServerSideObserver.Observation::gpu).flatMap(PhaseEnergy::of));
            SuiteAllure.attachPoint(measurement, validity, reset, server.logExcerpt(200));
            observer.observation(key).ifPresent(SuiteAllure::attachServerSide);
        } catch (Exception | Error e) {
            points.failed(key, e.getClass().getSimpleName() + ": " + e.getMessage());
            if (server != null) {
                SuiteAllure.attachText("server log (last 200 lines)", server.logExcerpt(200));
            }
            throw e;
        }
    }

    /**
     * The first point's "measure" test measures every point round robin; each point's test then takes its
     * own outcome, so its validity and expectation tests are judged as in a sequential run.
     */
    private synchronized PointMeasurement measuredInterleaved(LoadPointKey key) throws Exception {
        if (interleaved == null) {
            SpecRunner started = start();
            interleavedReset = server.resetCache();
            interleaved = started.measureInterleaved(spec.sweep().points(), observer);
        }
        return switch (interleaved.get(key)) {
            case PointOutcome.Measured measured -> measured.measurement();
            case PointOutcome.Failed failed -> throw failed.cause();
            case null -> throw new IllegalStateException(key + " is not a point of the interleaved sweep "
                    + spec.sweep().points());
        };
    }

    private synchronized SpecRunner start() throws IOException, InterruptedException {
        if (startFailure != null) {
            throw new IllegalStateException("the server did not start: " + startFailure);
        }
        if (runner == null) {
            try {
                server = SuiteTargets.start(spec, output.resolve("server"), settings);
                runner = new SpecRunner(spec, server.baseUrl(), server.model(), settings.apiKey(),
                        SuiteTargets.vocabulary(server), output, server.kind(), measuredHardware);
                writeEnvironment();
                measurements = new RunMeasurementsJson(output.resolve("measurements.json"), spec, server.kind(),
                        measuredHardware);
                observer = new ServerSideObserver(server.baseUrl(), settings.apiKey(), output, spec.repeats());
            } catch (IOException | RuntimeException e) {
                startFailure = e.getMessage();
                throw e;
            }
        }
        return runner;
    }

    private void writeEnvironment() throws IOException {
        RunEnvironment environment = new RunEnvironment(spec.name(), spec.source().sha256(), server.kind(),
                server.describe(), server.model().orElse(""), GpuInventory.query(), RunEnvironment.localCpuModel(),
                Runtime.getRuntime().availableProcessors(), Runtime.version().toString(),
                System.getProperty("os.name") + " " + System.getProperty("os.version"), Commit.current().orElse(""));
        environment.write(output);
    }

    /** The server-side view of {@code key}'s last repeat, once measured. */
    java.util.Optional<ServerSideObserver.Observation> observation(LoadPointKey key) {
        return observer == null ? java.util.Optional.empty() : observer.observation(key);
    }

    /** Prints the run's summary (to stdout, so it lands in the Maven and Jenkins log), then stops the server. */
    @Override
    public synchronized void close() {
        try {
            System.out.print(summary());
            System.out.flush();
        } finally {
            if (runner != null) {
                runner.close();
            }
            if (server != null) {
                server.close();
            }
        }
    }

    /** The summary of what has been judged so far, from the entries verdicts.json holds. */
    String summary() {
        List<RunVerdictsJson.Entry> entries = verdicts.entries();
        List<RunSummary.Point> summaryPoints = new ArrayList<>();
        for (LoadPointKey key : spec.sweep().points()) {
            Map<MetricId, Double> headline = new EnumMap<>(MetricId.class);
            int repeats = 0;
            Optional<String> speedOfLight = Optional.empty();
            if (points.state(key) instanceof MeasuredPoints.Measured measured) {
                repeats = measured.measurement().repeats().size();
                List<String> parts = new ArrayList<>();
                if (spec.deployment().isPresent()) {
                    parts.add(RunMeasurementsJson.roofline(spec, measured.measurement(), measuredHardware).describe());
                }
                // The GPU samples are the last repeat's (the observer keeps one per point): so are its tokens.
                List<PointMeasurement.Repeat> measuredRepeats = measured.measurement().repeats();
                observation(key).flatMap(ServerSideObserver.Observation::gpu).flatMap(PhaseEnergy::of)
                        .ifPresent(energy -> parts.add(energy.describe(measuredRepeats.getLast().summary()
                                .value(MetricId.TOTAL_OUTPUT_TOKENS)) + " (last repeat)"));
                speedOfLight = parts.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", parts));
                for (MetricId metric : RunSummary.HEADLINE) {
                    measured.measurement().median(metric).ifPresent(v -> headline.put(metric, v));
                }
            }
            summaryPoints.add(new RunSummary.Point(key.toString(), repeats, headline, speedOfLight, entries.stream()
                    .filter(e -> e.point().equals(Optional.of(key.toString()))).map(SuiteSession::line).toList()));
        }
        return RunSummary.render(spec.name(), summaryPoints,
                entries.stream().filter(e -> e.point().isEmpty() && e.kind() != RunVerdictsJson.Kind.KERNEL)
                        .map(SuiteSession::line).toList(),
                entries.stream().filter(e -> e.kind() == RunVerdictsJson.Kind.KERNEL).map(SuiteSession::line).toList());
    }

    private static RunSummary.Line line(RunVerdictsJson.Entry entry) {
        RunSummary.Outcome outcome = switch (entry.outcome()) {
            case PASS -> RunSummary.Outcome.PASS;
            case FAIL -> RunSummary.Outcome.FAIL;
            case INCONCLUSIVE -> RunSummary.Outcome.INCONCLUSIVE;
            case NOT_JUDGED -> RunSummary.Outcome.NOT_JUDGED;
            case INVALID -> RunSummary.Outcome.INVALID;
        };
        return new RunSummary.Line(outcome, entry.name(), entry.summary());
    }
}
