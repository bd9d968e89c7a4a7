package dev.servebench.perf;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The perf suite's test class as the engine tests run it through the JUnit Platform test kit, with the
 * spec given as a configuration parameter (the name keeps surefire from running it on its own).
 */
@ExtendWith(SuiteSettingsResolver.class)
class SpecSuiteFixture {

    @TestFactory
    Stream<DynamicNode> spec(SuiteSettings settings) throws IOException {
        return SpecSuite.nodes(settings);
    }
}
