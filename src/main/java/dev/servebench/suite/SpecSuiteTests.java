package dev.servebench.suite;

import java.io.IOException;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The perf suite as one JUnit Jupiter test class: the spec named by the configuration parameters (then system
 * properties, {@link SuiteSettings}) becomes dynamic tests. Every way of running a spec selects this class:
 * {@code servebench check} through the JUnit Platform launcher ({@link SpecCheck}), failsafe through
 * {@code PerformanceSpecIT} (a subclass in src/test), an IDE through either. Its name is no surefire pattern
 * of src/main, and src/test's unit tests select it only through the test kit.
 */
@ExtendWith(SuiteSettingsResolver.class)
public class SpecSuiteTests {

    @TestFactory
    Stream<DynamicNode> spec(SuiteSettings settings) throws IOException {
        return SpecSuite.nodes(settings);
    }
}
