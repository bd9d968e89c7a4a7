package dev.servebench.suite;

/**
 * The perf suite for failsafe: {@code ./mvnw verify -Pperf [-Dservebench.spec=FILE] [-Dservebench.target=KIND]
 * [-Dservebench.url=URL]} runs the spec (default: the embedded-engine spec) and reports one JUnit test per
 * load point measurement, validity condition and expectation. The tests are {@link SpecSuiteTests}' (main
 * code, the same that {@code servebench check} runs); this subclass only gives failsafe a name to find.
 */
class PerformanceSpecIT extends SpecSuiteTests {
}
