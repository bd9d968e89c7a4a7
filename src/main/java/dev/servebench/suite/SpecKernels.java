package dev.servebench.suite;

import dev.servebench.kernels.bench.KernelBenchmarks;
import dev.servebench.kernels.bench.KernelRunSettings;
import dev.servebench.results.RunVerdictsJson;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.verdict.KernelExpectationReport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The kernel suite run for a spec: the benchmarks ({@link KernelBenchmarks}), re-measuring the figures of the
 * spec's kernel lines that came out inconclusive (within the settings' budget), then the spec's kernel lines
 * judged on the figures measured, below the tables (figures.md and the log). There they are a report;
 * the suite's tests of the same lines are what fails a build. {@code servebench kernels run} and the perf
 * suite run the kernels through here.
 */
public final class SpecKernels {

    private SpecKernels() {
    }

    /**
     * @param spec         whose lines are judged below the tables; empty: none
     * @param expectations the spec's kernel lines
     */
    public static KernelBenchmarks.KernelRun run(Optional<Path> spec, List<KernelExpectation> expectations,
            KernelRunSettings settings, PrintStream out) throws IOException {
        return KernelBenchmarks.run(settings, measured -> spec.map(file -> verdicts(file, expectations, measured))
                .orElse(""), measured -> KernelExpectationReport.undecided(expectations, measured), out);
    }

    /** One line per kernel line: the same judgement the suite's test of it reports. */
    static String verdicts(Path spec, List<KernelExpectation> expectations, KernelMeasurements measured) {
        StringBuilder text = new StringBuilder("\n### Kernel expectations of " + spec + "\n\n");
        if (expectations.isEmpty()) {
            text.append("The spec has no kernels: lines.\n");
        }
        for (KernelExpectation expectation : expectations) {
            RunVerdictsJson.Entry entry = KernelExpectationReport.judge(expectation, measured).entry();
            text.append(String.format(Locale.ROOT, "- %s %s: %s%n", switch (entry.outcome()) {
                case PASS -> "pass";
                case FAIL -> "**FAIL**";
                case INCONCLUSIVE -> "**INCONCLUSIVE**";
                case NOT_JUDGED -> "**NOT JUDGED**";
                case INVALID -> "**INVALID**";
            }, entry.name(), entry.summary()));
        }
        return text.toString();
    }
}
