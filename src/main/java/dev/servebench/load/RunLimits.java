package dev.servebench.load;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * When a load point is cut short.
 *
 * @param maxDuration the whole load point's time limit from its start: past it nothing more is sent and the
 *                    requests in flight are cancelled, and the result says so (empty: no limit)
 */
public record RunLimits(Optional<Duration> maxDuration) {

    public static final RunLimits NONE = new RunLimits(Optional.empty());

    public RunLimits {
        Objects.requireNonNull(maxDuration, "maxDuration");
        if (maxDuration.isPresent() && (maxDuration.get().isNegative() || maxDuration.get().isZero())) {
            throw new IllegalArgumentException("maxDuration (" + maxDuration.get() + ") must be > 0");
        }
    }

    public static RunLimits maxDuration(Duration limit) {
        return new RunLimits(Optional.of(limit));
    }

    /** E.g. {@code 90 s}; "none" without a limit. */
    public String describeMaxDuration() {
        return maxDuration.map(d -> d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms")
                .orElse("none");
    }
}
