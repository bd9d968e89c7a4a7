package dev.servebench.verdict;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.metric.MetricId;
import dev.servebench.roofline.DecodeBound;
import dev.servebench.roofline.KnownShapes;
import dev.servebench.roofline.PointBound;
import dev.servebench.spec.BoundExpectation;
import dev.servebench.spec.BoundOperand;
import dev.servebench.spec.Comparison;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.spec.Measurements;
import dev.servebench.spec.SourcePosition;
import dev.servebench.verdict.Verdict.Fail;
import dev.servebench.verdict.Verdict.NotJudged;
import dev.servebench.verdict.Verdict.Pass;
import java.nio.file.Path;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** A metric against a multiple of the point's speed-of-light bound. */
class BoundJudgeTest {

    private static final LoadPointKey C1 = LoadPointKey.concurrency(1);
    private static final SourcePosition AT = new SourcePosition(Path.of("s.yaml"), 3, 5);
    /** GLM-5 single stream at context 319: 156 × (13 µs + 12,288 B × 1.75 / 63 GB/s) = 2.0807 ms → 480.48 tok/s. */
    private static final PointBound GLM5 = new PointBound.Bounded(
            DecodeBound.of(KnownShapes.glm5Nvfp4Tp8(), KnownShapes.rtxPro6000x8Pcie(), 1, 319));
    private static final BoundExpectation QUARTER = new BoundExpectation(MetricId.OUTPUT_THROUGHPUT,
            Comparison.AT_LEAST, 0.25, BoundOperand.ROOFLINE_OUTPUT_THROUGHPUT, C1, AT);

    private static Measurements measured(double value, PointBound bound) {
        return new Measurements() {
            @Override
            public OptionalDouble value(MetricId metric, LoadPointKey point) {
                return OptionalDouble.of(value);
            }

            @Override
            public PointBound bound(LoadPointKey point) {
                return bound;
            }
        };
    }

    @Test
    void theTeamsElevenTokensPerSecondFailAQuarterOfTheBound() {
        Verdict verdict = Judge.verdict(QUARTER, measured(11, GLM5));

        assertThat(verdict.outcome()).isInstanceOf(Fail.class);
        double bound = 1 / (156 * (13e-6 + 12288 * 1.75 / 63e9));
        assertThat(verdict.limit().getAsDouble()).isCloseTo(0.25 * bound, org.assertj.core.api.Assertions.within(1e-9));
        assertThat(verdict.explanation()).startsWith("output_throughput @ concurrency=1 = 11 tok/s = 0.0229 ×"
                + " roofline_output_throughput (480.4809 tok/s); expected ≥ 0.25 × roofline_output_throughput (120.1202 tok/s)");
        assertThat(Judge.verdict(QUARTER, measured(121, GLM5)).outcome()).isInstanceOf(Pass.class);
    }

    @Test
    void anItlAgainstAMultipleOfTheMinimum() {
        BoundExpectation fourTimes = new BoundExpectation(MetricId.MEAN_ITL_MS, Comparison.AT_MOST, 4,
                BoundOperand.MIN_ITL_MS, C1, AT);

        assertThat(Judge.verdict(fourTimes, measured(8.3, GLM5)).outcome()).isInstanceOf(Pass.class);
        assertThat(Judge.verdict(fourTimes, measured(91, GLM5)).outcome()).isInstanceOf(Fail.class);
    }

    @Test
    void withoutABoundItIsNotJudgedAndSaysWhy() {
        Verdict verdict = Judge.verdict(QUARTER, measured(11, new PointBound.Unbounded("spec s has no model:")));

        assertThat(verdict.outcome()).isEqualTo(new NotJudged("roofline_output_throughput @ concurrency=1 is not"
                + " known: spec s has no model:"));
        assertThat(Judge.verdict(QUARTER, measured(Double.NaN, GLM5)).outcome()).isInstanceOf(NotJudged.class);
        // A source that knows no bounds: not judged, never passed.
        Measurements plain = (metric, point) -> OptionalDouble.of(1e9);
        assertThat(Judge.verdict(QUARTER, plain).outcome()).isInstanceOf(NotJudged.class);
    }
}
