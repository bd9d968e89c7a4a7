package dev.servebench.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.metric.KernelMetric;
import dev.servebench.results.RunVerdictsJson;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.KernelMeasurements;
import dev.servebench.spec.KernelMeasurements.Value;
import dev.servebench.spec.SpecReader;
import dev.servebench.verdict.Verdict.Fail;
import dev.servebench.verdict.Verdict.Inconclusive;
import dev.servebench.verdict.Verdict.NotJudged;
import dev.servebench.verdict.Verdict.Pass;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Kernel expectations on hand-built kernel figures: pass and fail on finite numbers only, else not judged. */
class KernelJudgeTest {

    private static final String SHAPE = "6144x256x256x8";
    private static final String NATIVE_VS_F16 = "moe_gflops@backend=native,tokens=64 >= 1 x moe_gflops@backend=ggml-f16";

    private static KernelExpectation kernel(String line) {
        return SpecReader.parse("""
                name: k
                workload: {dataset: random, input_len: 8, output_len: 8}
                sweep: {concurrency: [1]}
                kernels:
                  - %s
                """.formatted(line), "k.yaml").kernelExpectations().getFirst();
    }

    private static Value moe(String backend, int tokens, double gflops) {
        return new Value(KernelMetric.MOE_GFLOPS, Map.of("backend", backend, "shape", SHAPE, "tokens",
                Integer.toString(tokens), "threads", "2"), gflops, List.of(List.of(gflops * 0.99, gflops, gflops * 1.01)));
    }

    private static KernelMeasurements run(Value... values) {
        return KernelMeasurements.of("reports/kernels/smoke-1/kernel-measurements.json", List.of(values));
    }

    @Test
    void aRatioToTheSameRunsBaselineAtTheCarriedPointPassesOrFails() {
        KernelMeasurements measured = run(moe("native", 64, 130), moe("ggml-f16", 64, 43), moe("ggml-f16", 256, 40));

        Verdict pass = Judge.verdict(kernel(NATIVE_VS_F16), measured);
        Verdict fail = Judge.verdict(kernel("moe_gflops@backend=native,tokens=64 >= 3.5 x moe_gflops@backend=ggml-f16"),
                measured);

        assertThat(pass.outcome()).isInstanceOf(Pass.class);
        assertThat(pass.explanation()).startsWith("moe_gflops@backend=native,tokens=64 = 130 GFLOP/s = 3.0233 ×"
                + " moe_gflops@backend=ggml-f16,tokens=64 (43 GFLOP/s); expected ≥ 1 × moe_gflops@backend=ggml-f16"
                + " (43 GFLOP/s); ratio 3.0233 × (95 % interval 2.9");
        assertThat(pass.readings()).extracting(Verdict.Reading::point)
                .containsExactly("backend=native,tokens=64", "backend=ggml-f16,tokens=64");
        assertThat(fail.outcome()).isInstanceOf(Fail.class);
        assertThat(fail.limit()).hasValue(3.5 * 43);
        Verdict absolute = Judge.verdict(kernel("moe_gflops >= 140 GFLOP/s @ backend=native,tokens=64"), measured);
        assertThat(absolute.outcome()).isInstanceOf(Fail.class);
        // Iterations 130·(1 ∓ 1 %): log spread ≈ 0.01, half-width 4.302653·√(π/2·0.0001/3) ≈ 0.0311.
        assertThat(absolute.explanation()).isEqualTo("moe_gflops@backend=native,tokens=64 = 130 GFLOP/s, expected ≥ 140"
                + " GFLOP/s; (95 % interval 126.0148–134.1112 GFLOP/s)");
    }

    @Test
    void nanInfinityAndAZeroBaselineAreNotJudgedNeverPassed() {
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            Verdict verdict = Judge.verdict(kernel(NATIVE_VS_F16), run(moe("native", 64, bad), moe("ggml-f16", 64, 43)));
            assertThat(verdict.outcome()).as("native = %s", bad).isInstanceOf(NotJudged.class);
            assertThat(((NotJudged) verdict.outcome()).reason()).startsWith("moe_gflops@backend=native,tokens=64 is ");
        }
        Verdict zero = Judge.verdict(kernel(NATIVE_VS_F16), run(moe("native", 64, 130), moe("ggml-f16", 64, 0)));
        assertThat(((NotJudged) zero.outcome()).reason()).isEqualTo("moe_gflops@backend=ggml-f16,tokens=64 is 0: no"
                + " multiple of it states how moe_gflops scales");
    }

    @Test
    void aPointTheRunDidNotMeasureOrThatMatchesSeveralResultsIsNotJudgedAndSaysWhatWasMeasured() {
        Verdict missing = Judge.verdict(kernel(NATIVE_VS_F16), run(moe("native", 64, 130), moe("ggml-q4_0", 64, 90)));
        assertThat(((NotJudged) missing.outcome()).reason()).isEqualTo("moe_gflops@backend=ggml-f16,tokens=64 was not"
                + " measured: not in the kernel run reports/kernels/smoke-1/kernel-measurements.json; it measured"
                + " moe_gflops at backend=native,shape=" + SHAPE + ",tokens=64,threads=2 | backend=ggml-q4_0,shape="
                + SHAPE + ",tokens=64,threads=2");

        Verdict ambiguous = Judge.verdict(kernel("moe_gflops@backend=native >= 1 x moe_gflops@backend=ggml-f16"),
                run(moe("native", 64, 130), moe("native", 256, 200), moe("ggml-f16", 64, 43)));
        assertThat(((NotJudged) ambiguous.outcome()).reason()).startsWith("moe_gflops@backend=native matches 2"
                + " measured results (backend=native,shape=" + SHAPE + ",tokens=64,threads=2 | backend=native,shape="
                + SHAPE + ",tokens=256,threads=2): name the parameters that tell them apart");

        List<Value> many = new ArrayList<>();
        for (int tokens = 1; tokens <= 10; tokens++) {
            many.add(moe("java", tokens, 1));
        }
        Verdict crowded = Judge.verdict(kernel(NATIVE_VS_F16), run(many.toArray(Value[]::new)));
        assertThat(((NotJudged) crowded.outcome()).reason()).contains("tokens=8,threads=2 | … (10 in all)")
                .doesNotContain("tokens=9,");
        Verdict none = Judge.verdict(kernel("allreduce_us@bytes=4MiB <= 1 x allreduce_us@algorithm=ring"), run());
        assertThat(((NotJudged) none.outcome()).reason()).endsWith("; it has no AllreduceBenchmark results");
    }

    @Test
    void skippedKernelsAreNotJudgedWithTheReasonAndTheTestFails() {
        KernelExpectationReport report = KernelExpectationReport.judge(kernel(NATIVE_VS_F16),
                KernelMeasurements.absent("the kernel benchmarks were skipped (-Dservebench.kernels.skip=true)"));

        assertThat(report.verdict().outcome()).isInstanceOf(NotJudged.class);
        assertThat(report.failure()).hasValueSatisfying(message -> assertThat(message).startsWith("not judged:"
                + " moe_gflops@backend=native,tokens=64 was not measured: the kernel benchmarks were skipped"
                + " (-Dservebench.kernels.skip=true); moe_gflops@backend=ggml-f16,tokens=64 was not measured: the kernel"
                + " benchmarks were skipped"));
        RunVerdictsJson.Entry entry = report.entry();
        assertThat(entry.kind()).isEqualTo(RunVerdictsJson.Kind.KERNEL);
        assertThat(entry.outcome()).isEqualTo(RunVerdictsJson.Outcome.NOT_JUDGED);
        assertThat(entry.point()).isEmpty();
    }

    @Test
    void theReportGivesBothFormulasAndTheValuesPerForkTheMedianWasTakenOver() {
        KernelExpectationReport report = KernelExpectationReport.judge(kernel(NATIVE_VS_F16),
                run(moe("native", 64, 130), moe("ggml-f16", 64, 43)));

        assertThat(report.failure()).isEmpty();
        assertThat(report.entry().summary()).matches("130 GFLOP/s = 3\\.0233 × 43 GFLOP/s \\(95 % interval"
                + " 2\\.9\\d+–3\\.1\\d+ ×\\), expected ≥ 1 × 43 = 43 GFLOP/s");
        assertThat(report.message()).startsWith("holds: " + kernel(NATIVE_VS_F16).displayName() + "\n")
                .contains("  moe_gflops [GFLOP/s] = 6·H·I·T·k / t (useful FLOPs of the routed experts), measured by"
                        + " MoeBenchmark\n")
                .contains("  moe_gflops at backend=native,shape=" + SHAPE + ",tokens=64,threads=2: median of 3"
                        + " iterations in 1 fork [128.7, 130.0, 131.3] GFLOP/s (reports/kernels/smoke-1/"
                        + "kernel-measurements.json)");
    }

    /** A figure at {@code gflops} whose three iterations are e^-spread, 1 and e^spread times it. */
    private static Value spread(String backend, double gflops, double logSpread) {
        return new Value(KernelMetric.MOE_GFLOPS, Map.of("backend", backend, "shape", SHAPE, "tokens", "64",
                "threads", "2"), gflops, List.of(List.of(gflops * Math.exp(-logSpread), gflops,
                gflops * Math.exp(logSpread))));
    }

    @Test
    void aLineWhoseIntervalStraddlesItsLimitIsInconclusiveWithTheIntervalAndNeverPasses() {
        KernelExpectation line = kernel("moe_gflops@backend=native,tokens=64 >= 0.8 x moe_gflops@backend=ggml-q4_0");
        // 0.81 × with both sides ±10 % over 3 iterations: 0.81·e^∓0.284121 (KernelIntervalsTest) = 0.6097–1.0762.
        KernelExpectationReport straddling = KernelExpectationReport.judge(line,
                run(spread("native", 81, 0.1), spread("ggml-q4_0", 100, 0.1)));

        assertThat(straddling.verdict().outcome()).isInstanceOfSatisfying(Inconclusive.class, inconclusive -> {
            assertThat(inconclusive.interval().lower()).isCloseTo(0.609667, org.assertj.core.api.Assertions.within(1e-6));
            assertThat(inconclusive.interval().upper()).isCloseTo(1.076161, org.assertj.core.api.Assertions.within(1e-6));
        });
        assertThat(straddling.verdict().passed()).isFalse();
        assertThat(straddling.entry().outcome()).isEqualTo(RunVerdictsJson.Outcome.INCONCLUSIVE);
        assertThat(straddling.entry().summary()).isEqualTo("81 GFLOP/s = 0.81 × 100 GFLOP/s (95 % interval"
                + " 0.6097–1.0762 ×), expected ≥ 0.8 × 100 = 80 GFLOP/s");
        assertThat(straddling.failure()).hasValueSatisfying(message -> assertThat(message)
                .startsWith("INCONCLUSIVE: " + line.displayName() + "\n")
                .contains("; ratio 0.81 × (95 % interval 0.6097–1.0762 ×, which straddles ≥ 0.8 ×)\n"));

        // The same medians, iterations ±1 %: clearly above. Half the limit, ±10 %: clearly below.
        assertThat(Judge.verdict(line, run(spread("native", 90, 0.01), spread("ggml-q4_0", 100, 0.01))).outcome())
                .isInstanceOf(Pass.class);
        assertThat(Judge.verdict(line, run(spread("native", 40, 0.1), spread("ggml-q4_0", 100, 0.1))).outcome())
                .isInstanceOf(Fail.class);
    }

    @Test
    void aFigureOfOneIterationGivesNoIntervalAndIsNotJudged() {
        Value single = new Value(KernelMetric.MOE_GFLOPS, Map.of("backend", "native", "shape", SHAPE, "tokens", "64",
                "threads", "2"), 130, List.of(List.of(130.0)));

        Verdict verdict = Judge.verdict(kernel(NATIVE_VS_F16), run(single, moe("ggml-f16", 64, 43)));

        assertThat(verdict.outcome()).isInstanceOfSatisfying(NotJudged.class, notJudged -> assertThat(notJudged
                .reason()).startsWith("moe_gflops@backend=native,tokens=64 has 1 iteration: an interval needs at least 2"));
    }
}
