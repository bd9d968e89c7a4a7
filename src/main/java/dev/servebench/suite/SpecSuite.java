package dev.servebench.suite;

import dev.servebench.kernels.bench.KernelRunSettings;
import dev.servebench.perf.SpecRunner;
import dev.servebench.results.RunVerdictsJson;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.spec.LoadPointBounds;

import dev.servebench.results.RunVerdictsJson.Kind;
import dev.servebench.results.RunVerdictsJson.Outcome;

import dev.servebench.spec.AbsoluteExpectation;
import dev.servebench.spec.Expectation;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.RelativeExpectation;
import dev.servebench.spec.SourcePosition;
import dev.servebench.spec.SpecReader;
import dev.servebench.telemetry.counters.CrossCheckResult;
import dev.servebench.verdict.ExpectationReport;
import dev.servebench.verdict.KernelExpectationReport;
import dev.servebench.verdict.PointValidity;
import dev.servebench.verdict.ValidityCheck;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.opentest4j.TestAbortedException;

/**
 * Turns a performance spec into JUnit dynamic tests: per load point a container with a "measure" test
 * (which runs the point once), one test per validity condition and one per expectation at that point;
 * then relative expectations across points, then the spec's kernel expectations. An invalid or unmeasured point aborts its expectation tests
 * with the reason: they are neither passed nor failed on numbers that say nothing about the server. Each
 * test only reports a verdict made in main ({@code ExpectationReport}, {@code PointValidity}); the session
 * prints the run's summary when JUnit closes the factory's stream, after the last test.
 */
final class SpecSuite {

    private SpecSuite() {
    }

    static Stream<DynamicNode> nodes(SuiteSettings settings) throws IOException {
        PerformanceSpec spec = SuiteTargets.resolve(SpecReader.read(settings.spec()), settings);
        Path output = settings.runDirectory().orElseGet(() -> runDirectory(settings.reports(), spec.name()));
        // Before any server starts: the kernels measure the machine, not the machine beside a server.
        SuiteKernels kernelRun = SuiteKernels.prepare(spec, settings, (mode, directory) -> SpecKernels.run(
                Optional.of(settings.spec()), spec.kernelExpectations(), KernelRunSettings.standard(mode, directory),
                System.out));
        // The spec's measured hardware figures come from this run's kernel run, as its kernel expectations do.
        MeasuredHardware hardware = kernelRun.hardware();
        MeasuredPoints points = new MeasuredPoints(key -> LoadPointBounds.at(spec, key, hardware));
        SuiteSession session = new SuiteSession(spec, settings, output, points, kernelRun, hardware);
        URI specUri = settings.spec().toAbsolutePath().toUri();
        List<DynamicNode> nodes = new ArrayList<>();
        for (LoadPointKey key : spec.sweep().points()) {
            List<DynamicNode> tests = new ArrayList<>();
            tests.add(DynamicTest.dynamicTest("measure @ " + key, specUri, () -> session.measure(key, points)));
            Optional<String> point = Optional.of(key.toString());
            for (PointValidity.Condition condition : PointValidity.Condition.values()) {
                String name = "validity: " + condition.title(spec.validity(), SpecRunner.clientThreads(spec)) + " @ " + key;
                tests.add(DynamicTest.dynamicTest(name, specUri, recorded(session, name, Kind.VALIDITY, point,
                        () -> validity(points, key, condition, name, point))));
            }
            String crossCheck = "server /metrics agrees with the client's token counts @ " + key;
            tests.add(DynamicTest.dynamicTest(crossCheck, specUri, recorded(session, crossCheck, Kind.CROSS_CHECK, point,
                    () -> crossCheck(session, points, key, crossCheck, point))));
            for (Expectation expectation : spec.expectations()) {
                if (expectation instanceof AbsoluteExpectation && expectation.point().equals(key)) {
                    tests.add(expectationTest(expectation, points, session));
                }
            }
            nodes.add(DynamicContainer.dynamicContainer(key.toString(), specUri, tests.stream()));
        }
        List<DynamicNode> relative = spec.expectations().stream().filter(e -> e instanceof RelativeExpectation)
                .map(e -> (DynamicNode) expectationTest(e, points, session)).toList();
        if (!relative.isEmpty()) {
            nodes.add(DynamicContainer.dynamicContainer("relative expectations", specUri, relative.stream()));
        }
        List<DynamicNode> kernels = spec.kernelExpectations().stream()
                .map(e -> (DynamicNode) kernelTest(e, session)).toList();
        if (!kernels.isEmpty()) {
            nodes.add(DynamicContainer.dynamicContainer("kernel expectations", specUri, kernels.stream()));
        }
        return Stream.of((DynamicNode) DynamicContainer.dynamicContainer("spec " + spec.name() + " on "
                + spec.target().kind(), specUri, nodes.stream())).onClose(session::close);
    }

    /** A new run's directory: {@code <reports>/<spec name>-<local time>}. */
    static Path runDirectory(Path reports, String specName) {
        return reports.resolve(specName + "-" + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
    }

    /**
     * Runs {@code body}, which judges and returns the verdicts.json entry, records that entry and then ends
     * the test as the entry says: pass, fail (fail and not judged, so neither can look green), or aborted
     * (invalid). JUnit does not judge again, so it and verdicts.json agree. An abort or error thrown by the
     * body is recorded as invalid or fail with its message.
     */
    private static Executable recorded(SuiteSession session, String name, Kind kind, Optional<String> point,
            ThrowingSupplier<RunVerdictsJson.Entry> body) {
        return () -> {
            RunVerdictsJson.Entry entry;
            try {
                entry = body.get();
            } catch (TestAbortedException e) {
                session.verdict(new RunVerdictsJson.Entry(name, kind, point, Outcome.INVALID, e.getMessage(),
                        firstLine(e.getMessage())));
                throw e;
            } catch (Throwable e) {
                String message = String.valueOf(e.getMessage());
                session.verdict(new RunVerdictsJson.Entry(name, kind, point, Outcome.FAIL, message, firstLine(message)));
                throw e;
            }
            session.verdict(entry);
            switch (entry.outcome()) {
                case PASS -> { }
                case FAIL, NOT_JUDGED -> Assertions.fail(entry.reason());
                // Neither passed nor failed: the measurement could not tell; the message has the interval.
                case INCONCLUSIVE, INVALID -> throw new TestAbortedException(entry.reason());
            }
        };
    }

    private static RunVerdictsJson.Entry validity(MeasuredPoints points, LoadPointKey key,
            PointValidity.Condition condition, String name, Optional<String> point) {
        if (!(points.state(key) instanceof MeasuredPoints.Measured measured)) {
            throw new TestAbortedException(points.notJudgeable(key));
        }
        ValidityCheck check = measured.validity().get(condition.ordinal());
        return check.holds()
                ? new RunVerdictsJson.Entry(name, Kind.VALIDITY, point, Outcome.PASS, check.explanation(),
                        check.explanation())
                : new RunVerdictsJson.Entry(name, Kind.VALIDITY, point, Outcome.FAIL,
                        check.name() + " @ " + key + ": " + check.explanation(), check.explanation());
    }

    private static RunVerdictsJson.Entry crossCheck(SuiteSession session, MeasuredPoints points, LoadPointKey key,
            String name, Optional<String> point) {
        if (!(points.state(key) instanceof MeasuredPoints.Measured)) {
            throw new TestAbortedException(points.notJudgeable(key));
        }
        ServerSideObserver.Observation observation = session.observation(key).orElse(null);
        if (observation == null || observation.crossCheck().isEmpty()) {
            throw new TestAbortedException(observation == null ? "not observed" : observation.crossCheckNote());
        }
        CrossCheckResult result = observation.crossCheck().get();
        String summary = result.verdict() + ": " + firstLine(result.lines());
        return switch (result.verdict()) {
            case AGREE -> new RunVerdictsJson.Entry(name, Kind.CROSS_CHECK, point, Outcome.PASS,
                    result.verdict() + "\n" + result.lines(), summary);
            case SERVER_HAS_NO_COUNTER -> throw new TestAbortedException("server " + result.flavor() + ": "
                    + result.lines());
            case DISAGREE, COUNTER_RESET -> new RunVerdictsJson.Entry(name, Kind.CROSS_CHECK, point, Outcome.FAIL,
                    "server and client token counts at " + key + ": " + result.verdict() + "\n" + result.lines(),
                    summary);
        };
    }

    /**
     * The expectation is judged once, by {@link ExpectationReport}; this test only reports that verdict. Its
     * points must be measured and valid first: otherwise it is aborted (invalid), not judged on numbers that
     * say nothing about the server.
     */
    private static DynamicTest expectationTest(Expectation expectation, MeasuredPoints points, SuiteSession session) {
        Optional<String> at = expectation instanceof AbsoluteExpectation ? Optional.of(expectation.point().toString())
                : Optional.empty();
        return DynamicTest.dynamicTest(expectation.displayName(), sourceUri(expectation.position()),
                recorded(session, expectation.displayName(), Kind.EXPECTATION, at, () -> {
            SuiteAllure.expectationLabels(expectation);
            for (LoadPointKey point : expectation.points()) {
                String reason = points.notJudgeable(point);
                if (reason != null) {
                    throw new TestAbortedException(expectation.displayName() + " not evaluated: " + reason);
                }
            }
            return ExpectationReport.judge(expectation, points).entry();
        }));
    }

    /**
     * A line of the spec's {@code kernels} list, judged once ({@link KernelExpectationReport}) on the kernel run
     * of this suite run. No such run (kernels skipped, no result file) is not judged with that reason: the test
     * fails, as a serving expectation whose metric was not measured does, instead of passing or vanishing.
     */
    private static DynamicTest kernelTest(KernelExpectation expectation, SuiteSession session) {
        return DynamicTest.dynamicTest(expectation.displayName(), sourceUri(expectation.position()),
                recorded(session, expectation.displayName(), Kind.KERNEL, Optional.empty(),
                        () -> KernelExpectationReport.judge(expectation, session.kernelMeasurements()).entry()));
    }

    /** The first line of {@code text}: verdicts.json's one-line summary of a multi-line message. */
    static String firstLine(String text) {
        String line = String.valueOf(text).lines().findFirst().orElse("");
        return line.isBlank() ? String.valueOf(text).strip().replace('\n', ' ') : line;
    }

    /** JUnit reads {@code ?line=&column=} of a file URI as the test's position in the spec. */
    static URI sourceUri(SourcePosition position) {
        return URI.create(position.file().toAbsolutePath().toUri() + "?line=" + position.line() + "&column="
                + position.column());
    }
}
