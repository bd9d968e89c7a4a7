package dev.servebench.baseline;

import java.util.OptionalDouble;

/**
 * One judged comparison as a gate's reports show it (JUnit test case, Markdown line) and Holm's correction
 * ranks it: a serving metric at a load point ({@link GateOutcome}) or a kernel figure at a kernel point
 * ({@link KernelOutcome}).
 */
public sealed interface GateCase permits GateOutcome, KernelOutcome {

    /** {@code metric @ point}: the test case's name. */
    String subject();

    /** The point: the cases of one point share it (the JUnit class name). */
    String group();

    GateVerdict verdict();

    /** The test's p-value; empty when nothing was tested (Holm leaves such cases out). */
    OptionalDouble pValue();

    /** The significance level the p-value was held to. */
    double alpha();

    /** One line naming the subject, both sides' medians, the change, interval, test, tolerance and verdict. */
    String message();
}
