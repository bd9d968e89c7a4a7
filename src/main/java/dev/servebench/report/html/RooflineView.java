package dev.servebench.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A load point's speed-of-light bound as measurements.json states it ({@code results.RooflineJson}): the
 * bound with its limiting term and the measured fractions, or why there is none.
 */
sealed interface RooflineView permits RooflineView.Bounded, RooflineView.Unbounded {

    record Bounded(int batch, int context, double boundOutputThroughput, double minItlMs, String limitingTerm,
            OptionalDouble outputThroughputOfRoofline, OptionalDouble itlOfBound) implements RooflineView {
        public Bounded {
            Objects.requireNonNull(limitingTerm, "limitingTerm");
        }
    }

    record Unbounded(String reason) implements RooflineView {
        public Unbounded {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** @param where names the node in messages */
    static RooflineView parse(JsonNode node, String where) {
        if (!node.path("bounded").isBoolean()) {
            throw new IllegalArgumentException(where + ": roofline.bounded must be true or false");
        }
        if (!node.get("bounded").asBoolean()) {
            return new Unbounded(node.path("reason").asText("no reason given"));
        }
        return new Bounded(node.path("batch").asInt(), node.path("context_tokens").asInt(),
                number(node, "roofline_output_throughput", where), number(node, "min_itl_ms", where),
                node.path("limiting_term").asText("?"), optional(node.path("output_throughput_of_roofline")),
                optional(node.path("itl_of_bound")));
    }

    private static double number(JsonNode node, String key, String where) {
        if (!node.path(key).isNumber()) {
            throw new IllegalArgumentException(where + ": " + key + " must be a number, found "
                    + node.path(key));
        }
        return node.get(key).asDouble();
    }

    private static OptionalDouble optional(JsonNode value) {
        return value.isNumber() ? OptionalDouble.of(value.asDouble()) : OptionalDouble.empty();
    }

    /**
     * The GPUs' energy over a point's last repeat, as measurements.json states it: total joules, output tokens
     * per joule and mean power as a share of the power limit (each empty when not measured).
     */
    record Energy(double totalJoules, OptionalDouble outputTokensPerJoule, OptionalDouble shareOfPowerLimit) {
        static Energy parse(JsonNode node, String where) {
            return new Energy(number(node, "total_joules", where), optional(node.path("output_tokens_per_joule")),
                    optional(node.path("share_of_power_limit")));
        }
    }
}
