package dev.servebench.roofline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class PointRooflineTest {

    /** GLM-5 at batch 1, context 384: 2.08 ms, 480 tok/s (docs/roofline.md's worked example). */
    private static final PointBound GLM5_B1 = new PointBound.Bounded(
            DecodeBound.of(KnownShapes.glm5Nvfp4Tp8(), KnownShapes.rtxPro6000x8Pcie(), 1, 384));

    @Test
    void theTeamsSingleStreamIsAFewPercentOfTheBound() {
        // 11 tok/s and a mean ITL of 91 ms measured; bound 480.3 tok/s, min ITL 2.082 ms.
        PointRoofline r = PointRoofline.of(GLM5_B1, OptionalDouble.of(11), OptionalDouble.of(91));

        assertThat(r.outputThroughputOfRoofline().getAsDouble()).isCloseTo(11 / 480.3, within(2e-4));
        assertThat(r.itlOfBound().getAsDouble()).isCloseTo(2.082 / 91, within(2e-4));
        assertThat(r.describe()).isEqualTo("bound 480 output tok/s, min ITL 2.08 ms (batch 1, context 384), limited"
                + " by communication; output throughput 2.3 % of the bound, min ITL 2.3 % of the mean ITL");
    }

    @Test
    void absentOrUnusableMeasurementsGiveNoFraction() {
        PointRoofline r = PointRoofline.of(GLM5_B1, OptionalDouble.empty(), OptionalDouble.of(0));

        assertThat(r.outputThroughputOfRoofline()).isEmpty();
        assertThat(r.itlOfBound()).isEmpty();
        assertThat(r.describe()).endsWith("; output throughput not measured, mean ITL not measured");
        assertThat(PointRoofline.of(GLM5_B1, OptionalDouble.of(Double.NaN), OptionalDouble.of(Double.POSITIVE_INFINITY))
                .outputThroughputOfRoofline()).isEmpty();
    }

    @Test
    void withoutABoundThereIsOnlyTheReason() {
        PointRoofline r = PointRoofline.of(new PointBound.Unbounded("no model"), OptionalDouble.of(5),
                OptionalDouble.of(3));

        assertThat(r.outputThroughputOfRoofline()).isEmpty();
        assertThat(r.describe()).isEqualTo("no bound: no model");
        assertThatThrownBy(() -> new PointRoofline(new PointBound.Unbounded("x"), OptionalDouble.of(1),
                OptionalDouble.empty())).isInstanceOf(IllegalArgumentException.class);
    }
}
