package dev.servebench.spec;

import dev.servebench.metric.KernelMetric;

/**
 * One line of a spec's {@code kernels} list: a kernel figure at a benchmark parameter point compared with
 * a number ({@link AbsoluteKernelExpectation}) or with a multiple of a baseline figure measured in the same
 * run ({@link RelativeKernelExpectation}). Each becomes its own test of the perf suite, named by
 * {@link #displayName()}; judging is {@code dev.servebench.verdict.Judge}'s.
 */
public sealed interface KernelExpectation permits AbsoluteKernelExpectation, RelativeKernelExpectation {

    KernelMetric metric();

    /** Where the checked figure is read. */
    KernelPoint point();

    Comparison comparison();

    /** Where the expression starts in the spec file. */
    SourcePosition position();

    /** Canonical one-line form, e.g. {@code moe_gflops@backend=native,tokens=64 ≥ 1 × moe_gflops@backend=ggml-f16}. */
    String displayName();

    /** The comparison and what it compares with, as in the display name. */
    String limitText();
}
