package dev.servebench.report.html;

import dev.servebench.results.MeasurementsFile;
import dev.servebench.results.RooflineJson;
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

    static RooflineView of(RooflineJson roofline) {
        return switch (roofline) {
            case RooflineJson.Unbounded u -> new Unbounded(u.reason());
            case RooflineJson.Bounded b -> new Bounded(b.batch(), b.contextTokens(), b.rooflineOutputThroughput(),
                    b.minItlMs(), b.limitingTerm(), optional(b.outputThroughputOfRoofline()),
                    optional(b.itlOfBound()));
        };
    }

    private static OptionalDouble optional(Double value) {
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /**
     * The GPUs' energy over a point's last repeat, as measurements.json states it: total joules, output tokens
     * per joule and mean power as a share of the power limit (each empty when not measured).
     */
    record Energy(double totalJoules, OptionalDouble outputTokensPerJoule, OptionalDouble shareOfPowerLimit) {
        static Energy of(MeasurementsFile.Energy energy) {
            return new Energy(energy.totalJoules(), optional(energy.outputTokensPerJoule()),
                    optional(energy.shareOfPowerLimit()));
        }
    }
}
