package dev.servebench.roofline;

import java.util.Objects;
import java.util.OptionalDouble;

/**
 * A load point's speed-of-light bound, or why it has none (no model or hardware, a measured figure the run
 * lacks, no fixed batch or lengths). Absent is never replaced by a guess.
 */
public sealed interface PointBound permits PointBound.Bounded, PointBound.Unbounded {

    /** @param decode the decode step at the point's batch and mean context */
    record Bounded(DecodeBound decode) implements PointBound {
        public Bounded {
            Objects.requireNonNull(decode, "decode");
        }

        /** measured ÷ roofline output tok/s; empty when the measurement is not a finite number >= 0. */
        public OptionalDouble outputThroughputOfRoofline(OptionalDouble measuredOutputTokPerS) {
            return measuredOutputTokPerS.isPresent() && Double.isFinite(measuredOutputTokPerS.getAsDouble())
                    && measuredOutputTokPerS.getAsDouble() >= 0
                    ? OptionalDouble.of(Roofline.outputThroughputOfRoofline(measuredOutputTokPerS.getAsDouble(), decode))
                    : OptionalDouble.empty();
        }

        /** min ITL ÷ measured ITL; empty when the measurement is not a finite number > 0. */
        public OptionalDouble itlOfBound(OptionalDouble measuredItlMs) {
            return measuredItlMs.isPresent() && Double.isFinite(measuredItlMs.getAsDouble())
                    && measuredItlMs.getAsDouble() > 0
                    ? OptionalDouble.of(Roofline.itlOfBound(measuredItlMs.getAsDouble(), decode))
                    : OptionalDouble.empty();
        }
    }

    record Unbounded(String reason) implements PointBound {
        public Unbounded {
            Objects.requireNonNull(reason, "reason");
            if (reason.isBlank()) throw new IllegalArgumentException("an absent bound needs its reason");
        }
    }
}
