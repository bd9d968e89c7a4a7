package dev.servebench.load;

import java.time.Duration;
import java.util.Objects;

/**
 * A load point that reached its time limit before every request ended: a reported cut, not a failure of the
 * server. Requests cancelled in flight are recorded with kind {@code CANCELLED}; requests never sent have no
 * record.
 *
 * @param limit     the time limit that was reached
 * @param notSent   planned requests that were never sent
 * @param cancelled requests in flight when the cut came (cancelled, recorded)
 */
public record LoadPointCut(Duration limit, int notSent, int cancelled) {
    public LoadPointCut {
        Objects.requireNonNull(limit, "limit");
        if (notSent < 0 || cancelled < 0) {
            throw new IllegalArgumentException("notSent (" + notSent + ") and cancelled (" + cancelled
                    + ") must be >= 0");
        }
    }

    /** One line for the console and the summary's notes. */
    public String describe() {
        return "cut at its time limit of " + new RunLimits(java.util.Optional.of(limit)).describeMaxDuration() + ": "
                + notSent + " planned request(s) never sent, " + cancelled + " cancelled in flight";
    }
}
