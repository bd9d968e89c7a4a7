package dev.servebench.perf;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.perf.RunVerdictsJson.Kind;
import dev.servebench.perf.RunVerdictsJson.Outcome;

import dev.servebench.spec.AbsoluteExpectation;
import dev.servebench.spec.Expectation;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.RelativeExpectation;
import dev.servebench.spec.SourcePosition;
import dev.servebench.spec.SpecReader;
import dev.servebench.spec.Verdict;
import dev.servebench.telemetry.server.CrossCheckResult;
import dev.servebench.verdict.ExpectationMessage;
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
import org.assertj.core.api.AbstractDoubleAssert;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.function.ThrowingSupplier;
import org.opentest4j.TestAbortedException;

/**
 * Turns a performance spec into JUnit dynamic tests: per load point a container with a "measure" test
 * (which runs the point once), one test per validity condition and one per expectation at that point;
 * then relative expectations across points. An invalid or unmeasured point aborts its expectation tests
 * with the reason: they are neither passed nor failed on numbers that say nothing about the server.
 */
final class SpecSuite {

    private SpecSuite() {
    }

    static Stream<DynamicNode> nodes(SuiteSettings settings) throws IOException {
        PerformanceSpec spec = SuiteTargets.resolve(SpecReader.read(settings.spec()), settings);
        Path output = settings.reports().resolve(spec.name() + "-"
                + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        SuiteSession session = new SuiteSession(spec, settings, output);
        MeasuredPoints points = new MeasuredPoints();
        URI specUri = settings.spec().toAbsolutePath().toUri();
        List<DynamicNode> nodes = new ArrayList<>();
        for (LoadPointKey key : spec.sweep().points()) {
            List<DynamicNode> tests = new ArrayList<>();
            tests.add(DynamicTest.dynamicTest("measure @ " + key, specUri, () -> session.measure(key, points)));
            Optional<String> point = Optional.of(key.toString());
            for (PointValidity.Condition condition : PointValidity.Condition.values()) {
                String name = "validity: " + condition.title(spec.validity(), SuiteSession.CLIENT_THREADS) + " @ " + key;
                tests.add(DynamicTest.dynamicTest(name, specUri, recorded(session, name, Kind.VALIDITY, point,
                        () -> validity(points, key, condition))));
            }
            String crossCheck = "server /metrics agrees with the client's token counts @ " + key;
            tests.add(DynamicTest.dynamicTest(crossCheck, specUri, recorded(session, crossCheck, Kind.CROSS_CHECK, point,
                    () -> crossCheck(session, points, key))));
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
        return Stream.of((DynamicNode) DynamicContainer.dynamicContainer("spec " + spec.name() + " on "
                + spec.target().kind(), specUri, nodes.stream())).onClose(session::close);
    }

    /**
     * Runs {@code body} and records its outcome in the run's verdicts.json: pass with what it judged, fail
     * with the assertion's message, invalid with the reason it was aborted. The outcome itself is JUnit's.
     */
    private static Executable recorded(SuiteSession session, String name, Kind kind, Optional<String> point,
            ThrowingSupplier<String> body) {
        return () -> {
            String judged;
            try {
                judged = body.get();
            } catch (TestAbortedException e) {
                session.verdict(new RunVerdictsJson.Entry(name, kind, point, Outcome.INVALID, e.getMessage()));
                throw e;
            } catch (Throwable e) {
                session.verdict(new RunVerdictsJson.Entry(name, kind, point, Outcome.FAIL, String.valueOf(e.getMessage())));
                throw e;
            }
            session.verdict(new RunVerdictsJson.Entry(name, kind, point, Outcome.PASS, judged));
        };
    }

    private static String validity(MeasuredPoints points, LoadPointKey key, PointValidity.Condition condition) {
        if (!(points.state(key) instanceof MeasuredPoints.Measured measured)) {
            Assumptions.abort(points.notJudgeable(key));
            return "";
        }
        ValidityCheck check = measured.validity().get(condition.ordinal());
        assertThat(check.holds()).as("%s @ %s: %s", check.name(), key, check.explanation()).isTrue();
        return check.explanation();
    }

    private static String crossCheck(SuiteSession session, MeasuredPoints points, LoadPointKey key) {
        if (!(points.state(key) instanceof MeasuredPoints.Measured)) {
            Assumptions.abort(points.notJudgeable(key));
        }
        ServerSideObserver.Observation observation = session.observation(key).orElse(null);
        if (observation == null || observation.crossCheck().isEmpty()) {
            Assumptions.abort(observation == null ? "not observed" : observation.crossCheckNote());
            return "";
        }
        CrossCheckResult result = observation.crossCheck().get();
        switch (result.verdict()) {
            case AGREE -> { }
            case SERVER_HAS_NO_COUNTER -> Assumptions.abort("server " + result.flavor() + ": " + result.lines());
            case DISAGREE, COUNTER_RESET -> org.junit.jupiter.api.Assertions.fail(
                    "server and client token counts at " + key + ": " + result.verdict() + "\n" + result.lines());
        }
        return result.verdict() + "\n" + result.lines();
    }

    private static DynamicTest expectationTest(Expectation expectation, MeasuredPoints points, SuiteSession session) {
        Optional<String> at = expectation instanceof AbsoluteExpectation ? Optional.of(expectation.point().toString())
                : Optional.empty();
        return DynamicTest.dynamicTest(expectation.displayName(), sourceUri(expectation.position()),
                recorded(session, expectation.displayName(), Kind.EXPECTATION, at, () -> {
            SuiteAllure.expectationLabels(expectation);
            for (LoadPointKey point : expectation.points()) {
                String reason = points.notJudgeable(point);
                if (reason != null) {
                    Assumptions.abort(expectation.displayName() + " not evaluated: " + reason);
                }
            }
            Verdict verdict = expectation.evaluate(points);
            String message = ExpectationMessage.describe(expectation, verdict, points);
            AbstractDoubleAssert<?> measured = assertThat(verdict.measured()).as(message);
            switch (expectation.comparison()) {
                case AT_LEAST -> measured.isGreaterThanOrEqualTo(verdict.limit());
                case AT_MOST -> measured.isLessThanOrEqualTo(verdict.limit());
                case GREATER_THAN -> measured.isGreaterThan(verdict.limit());
                case LESS_THAN -> measured.isLessThan(verdict.limit());
            }
            return message;
        }));
    }

    /** JUnit reads {@code ?line=&column=} of a file URI as the test's position in the spec. */
    static URI sourceUri(SourcePosition position) {
        return URI.create(position.file().toAbsolutePath().toUri() + "?line=" + position.line() + "&column="
                + position.column());
    }
}
