package dev.servebench.spec;

import dev.servebench.metric.MetricId;
import java.util.List;

/**
 * One line of a spec's {@code expect} list: a metric at a load point compared with a number
 * ({@link AbsoluteExpectation}), with a multiple of a metric at another point ({@link RelativeExpectation}) or
 * with a multiple of the point's speed-of-light bound ({@link BoundExpectation}).
 * Each becomes its own test, named by {@link #displayName()}, located by {@link #position()}; judging one
 * against measured values is {@code dev.servebench.verdict.Judge}'s, not the spec model's.
 */
public sealed interface Expectation permits AbsoluteExpectation, RelativeExpectation, BoundExpectation {

    /** The metric that is checked. */
    MetricId metric();

    /** The load point the checked metric is read at. */
    LoadPointKey point();

    Comparison comparison();

    /** Where the expression starts in the spec file. */
    SourcePosition position();

    /** Canonical one-line form, e.g. {@code output_throughput ≥ 600 tok/s @ concurrency=256}. */
    String displayName();

    /** Every load point whose values the check reads. */
    List<LoadPointKey> points();

    /** The comparison and what it compares with, as in the display name: {@code ≥ 600 tok/s}. */
    String limitText();
}
