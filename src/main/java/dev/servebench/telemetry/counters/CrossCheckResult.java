package dev.servebench.telemetry.counters;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The server-side cross-check of one measured phase.
 *
 * @param flavor    the server
 * @param from      the scrape before the measured phase
 * @param to        the scrape after it
 * @param tolerance the relative difference still called agreement, e.g. 0.01 for ±1%
 * @param verdict   DISAGREE if any counter disagrees; else COUNTER_RESET if any counter reset; else AGREE if
 *                  any counter agrees; else SERVER_HAS_NO_COUNTER
 * @param checks    one per counter, generated tokens first
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record CrossCheckResult(
        ServerFlavor flavor,
        @JsonSerialize(using = ToStringSerializer.class) Instant from,
        @JsonSerialize(using = ToStringSerializer.class) Instant to,
        double tolerance,
        CrossCheckVerdict verdict,
        List<CounterCheck> checks) {

    public CrossCheckResult {
        Objects.requireNonNull(flavor, "flavor");
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        TokenCrossCheck.requireValidTolerance(tolerance);
        Objects.requireNonNull(verdict, "verdict");
        checks = List.copyOf(Objects.requireNonNull(checks, "checks"));
    }

    /** The check of one counter. */
    public CounterCheck check(CounterKind kind) {
        return checks.stream().filter(c -> c.kind() == kind).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no check of " + kind));
    }

    /** Every check's line, one per line, for consoles and reports. */
    public String lines() {
        return checks.stream().map(CounterCheck::line).collect(Collectors.joining("\n"));
    }
}
