package dev.servebench.kernels.moe;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.kernels.KernelLibrary;
import java.util.Arrays;
import java.util.Comparator;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RoutingTest {

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void nativeRoutingEqualsTheReferenceBitForBit(KernelLibrary.Variant variant) {
        NativeMoe moe = new NativeMoe(KernelLibrary.load(variant));
        RoutingConfig[] configs = {
            RoutingConfig.GLM5,
            RoutingConfig.DEEPSEEK_V3,
            new RoutingConfig(160, 8, 1, 1, true, 2.5f),
            new RoutingConfig(64, 6, 4, 2, false, 1f),
            new RoutingConfig(16, 4, 8, 3, true, 1.5f),
        };
        for (RoutingConfig config : configs) {
            MoeShape shape = new MoeShape(64, 16, config.experts(), config.topK());
            RouterInputs inputs = RouterInputs.random(shape, 64, config.experts() * 31L + config.nGroup(),
                    RoutingSkew.UNIFORM);
            Routing expected = RoutingReference.route(inputs.logits(), inputs.bias(), 64, config);
            assertThat(moe.route(inputs.logits(), inputs.bias(), 64, config)).as("%s", config).isEqualTo(expected);
            Routing unbiased = RoutingReference.route(inputs.logits(), null, 64, config);
            assertThat(moe.route(inputs.logits(), null, 64, config)).as("%s without bias", config).isEqualTo(unbiased);
        }
    }

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void tiesGoToTheLowerIndexInJavaAndNative(KernelLibrary.Variant variant) {
        NativeMoe moe = new NativeMoe(KernelLibrary.load(variant));
        SplittableRandom random = new SplittableRandom(3);
        int tokens = 48;
        for (RoutingConfig config : new RoutingConfig[] {RoutingConfig.GLM5, RoutingConfig.DEEPSEEK_V3}) {
            float[] logits = new float[tokens * config.experts()];
            for (int i = 0; i < logits.length; i++) {
                logits[i] = random.nextInt(3) - 1; // three values only: ties everywhere
            }
            logits[5] = -0f; // -0 ties with 0
            float[] bias = new float[config.experts()];
            for (int e = 0; e < bias.length; e++) {
                bias[e] = e % 4 == 0 ? 0.25f : 0f;
            }
            Routing expected = RoutingReference.route(logits, bias, tokens, config);
            assertThat(moe.route(logits, bias, tokens, config)).isEqualTo(expected);
            for (int t = 0; t < tokens; t++) {
                for (int j = 1; j < config.topK(); j++) {
                    float before = pick(logits, bias, config, t, expected.id(t, j - 1));
                    float after = pick(logits, bias, config, t, expected.id(t, j));
                    assertThat(before).isGreaterThanOrEqualTo(after);
                    if (before == after) {
                        assertThat(expected.id(t, j - 1)).as("tie order, token %d slot %d", t, j)
                                .isLessThan(expected.id(t, j));
                    }
                }
            }
        }
    }

    private static float pick(float[] logits, float[] bias, RoutingConfig config, int token, int expert) {
        return MoeMath.sigmoid(logits[token * config.experts() + expert]) + bias[expert];
    }

    @ParameterizedTest
    @EnumSource(KernelLibrary.Variant.class)
    void handCheckedTopKAndGroupSelection(KernelLibrary.Variant variant) {
        NativeMoe moe = new NativeMoe(KernelLibrary.load(variant));
        // All scores equal: the first k experts, weights 0.5 / (1.5 + 1e-20) * 2.5.
        RoutingConfig plain = new RoutingConfig(8, 3, 1, 1, true, 2.5f);
        Routing equal = moe.route(new float[8], null, 1, plain);
        assertThat(equal.ids()).containsExactly(0, 1, 2);
        assertThat(equal.weights()).containsExactly(0.8333334f, 0.8333334f, 0.8333334f);
        assertThat(RoutingReference.route(new float[8], null, 1, plain)).isEqualTo(equal);

        // Groups of two; group scores 1.0, 1.76, 0.93, 1.46: groups 1 and 3 win although experts 0
        // and 4 have the best scores; inside them 2 and 3 tie (lower first), then 6 and 7 tie.
        float[] logits = {3, -3, 2, 2, 2.5f, -5, 1, 1};
        RoutingConfig grouped = new RoutingConfig(8, 3, 4, 2, false, 1f);
        Routing routing = moe.route(logits, null, 1, grouped);
        assertThat(routing.ids()).containsExactly(2, 3, 6);
        assertThat(routing.weights()).containsExactly(MoeMath.sigmoid(2), MoeMath.sigmoid(2), MoeMath.sigmoid(1));
        assertThat(RoutingReference.route(logits, null, 1, grouped)).isEqualTo(routing);
        assertThat(RoutingReference.route(logits, null, 1, new RoutingConfig(8, 3, 1, 1, false, 1f)).ids())
                .as("without groups").containsExactly(0, 4, 2);
    }

    @Test
    void biasSelectsButDoesNotWeigh() {
        float[] logits = {0, 1, 2, 3};
        float[] bias = {5, 0, 0, 0};
        Routing routing = RoutingReference.route(logits, bias, 1, new RoutingConfig(4, 2, 1, 1, false, 1f));
        assertThat(routing.ids()).containsExactly(0, 3);
        assertThat(routing.weights()).containsExactly(0.5f, MoeMath.sigmoid(3));
    }

    @Test
    void hotExpertsConcentrateTheLoad() {
        MoeShape shape = MoeShape.GLM5_TP8;
        int tokens = 64;
        int[] uniform = counts(shape, tokens, RoutingSkew.UNIFORM);
        int[] hot = counts(shape, tokens, RoutingSkew.HOT_EXPERTS);
        int hotSet = shape.experts() / 16;
        assertThat(top(hot, hotSet)).isGreaterThan(tokens * shape.topK() * 3 / 4);
        assertThat(top(uniform, hotSet)).isLessThan(tokens * shape.topK() / 4);
    }

    private static int[] counts(MoeShape shape, int tokens, RoutingSkew skew) {
        RouterInputs inputs = RouterInputs.random(shape, tokens, 9, skew);
        Routing routing = RoutingReference.route(inputs.logits(), inputs.bias(), tokens,
                RoutingConfig.glm5Like(shape.experts(), shape.topK()));
        int[] counts = new int[shape.experts()];
        for (int id : routing.ids()) {
            counts[id]++;
        }
        return counts;
    }

    private static int top(int[] counts, int n) {
        return Arrays.stream(counts).boxed().sorted(Comparator.reverseOrder()).limit(n)
                .mapToInt(Integer::intValue).sum();
    }
}
