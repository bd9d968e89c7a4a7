package dev.servebench.spec;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * How the client measures: its threads and when it gives up on a request ({@code servebench run}'s
 * {@code --client-threads}, {@code --stall-timeout}, {@code --request-timeout}).
 *
 * @param threads        client event-loop threads; empty = as many as cores, at most 4 (machine-dependent, so
 *                       a spec only fixes it when asked to)
 * @param stallTimeout   a request fails when no byte arrives for this long
 * @param requestTimeout a request fails when it takes longer than this in all; empty = no limit
 */
public record ClientSpec(OptionalInt threads, Duration stallTimeout, Optional<Duration> requestTimeout) {

    public static final Duration DEFAULT_STALL_TIMEOUT = Duration.ofSeconds(600);
    public static final ClientSpec DEFAULTS = new ClientSpec(OptionalInt.empty(), DEFAULT_STALL_TIMEOUT, Optional.empty());

    public ClientSpec {
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(stallTimeout, "stallTimeout");
        Objects.requireNonNull(requestTimeout, "requestTimeout");
        if (threads.isPresent() && threads.getAsInt() < 1) {
            throw new IllegalArgumentException("client threads (" + threads.getAsInt() + ") must be >= 1");
        }
        requirePositive("stall timeout", stallTimeout);
        requestTimeout.ifPresent(d -> requirePositive("request timeout", d));
    }

    static void requirePositive(String what, Duration duration) {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(what + " (" + duration.toMillis() / 1000.0 + " s) must be > 0");
        }
    }
}
