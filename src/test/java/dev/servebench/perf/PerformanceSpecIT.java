package dev.servebench.perf;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The perf suite: {@code ./mvnw verify -Pperf [-Dservebench.spec=FILE] [-Dservebench.target=KIND]
 * [-Dservebench.url=URL]} runs the spec (default: the embedded-engine spec) and reports one JUnit test per
 * load point measurement, validity condition and expectation.
 */
@ExtendWith(SuiteSettingsResolver.class)
class PerformanceSpecIT {

    @TestFactory
    Stream<DynamicNode> spec(SuiteSettings settings) throws IOException {
        return SpecSuite.nodes(settings);
    }
}
