package dev.servebench.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.roofline.DecodeBound;
import dev.servebench.roofline.Deployment;
import dev.servebench.roofline.HardwareFigures;
import dev.servebench.roofline.KnownShapes;
import dev.servebench.roofline.PointBound;
import dev.servebench.roofline.PointRoofline;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class RooflineJsonTest {

    private static final Deployment GLM5 = new Deployment(KnownShapes.glm5Nvfp4Tp8(), "model card",
            HardwareFigures.of(KnownShapes.rtxPro6000x8Pcie()));

    @Test
    void aBoundedPointCarriesItsInputsBoundLimitingTermAndFractions() {
        DecodeBound d = DecodeBound.of(KnownShapes.glm5Nvfp4Tp8(), KnownShapes.rtxPro6000x8Pcie(), 1, 319);
        ObjectNode json = FormatJson.tree(RooflineJson.of(GLM5, PointRoofline.of(new PointBound.Bounded(d), OptionalDouble.of(11),
                OptionalDouble.empty())));

        assertThat(json.get("bounded").asBoolean()).isTrue();
        assertThat(json.get("batch").asInt()).isEqualTo(1);
        assertThat(json.get("context_tokens").asInt()).isEqualTo(319);
        assertThat(json.get("limiting_term").asText()).isEqualTo("communication");
        // 156 allreduces × (13 µs + 12,288 B × 1.75 / 63 GB/s) = 2.0807 ms
        assertThat(json.get("min_itl_ms").asDouble()).isCloseTo(156 * (13e-3 + 12288 * 1.75 / 63e9 * 1e3),
                within(1e-9));
        assertThat(json.get("roofline_output_throughput").asDouble()).isCloseTo(1000 / json.get("min_itl_ms")
                .asDouble(), within(1e-9));
        assertThat(json.get("output_throughput_of_roofline").asDouble())
                .isCloseTo(11 / json.get("roofline_output_throughput").asDouble(), within(1e-12));
        assertThat(json.get("itl_of_bound").isNull()).isTrue();
        assertThat(json.at("/model/source").asText()).isEqualTo("model card");
        assertThat(json.at("/model/tensor_parallel").asInt()).isEqualTo(8);
        assertThat(json.at("/hardware/allreduce_latency_s/value").asDouble()).isEqualTo(13e-6);
        assertThat(json.at("/hardware/dense_flops_per_s/fp4/source").asText()).contains("hmc-tech.com");
    }

    @Test
    void anUnboundedPointSaysWhy() {
        ObjectNode json = FormatJson.tree(RooflineJson.of(GLM5, PointRoofline.of(new PointBound.Unbounded("no cap"),
                OptionalDouble.of(1), OptionalDouble.of(1))));

        assertThat(json.get("bounded").asBoolean()).isFalse();
        assertThat(json.get("reason").asText()).isEqualTo("no cap");
        assertThat(json.has("roofline_output_throughput")).isFalse();
    }
}
