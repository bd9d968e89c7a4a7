package dev.servebench.server.embedded;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * An injected slowdown of the embedded engine, for checking that the regression gate sees one: each
 * generated token is held back before it reaches the client. Token {@code i} (from 0), produced at
 * {@code a_i}, is released at {@code a_i + gapFraction × (a_i − a_0) + i × perToken}: a fraction stretches
 * every gap between tokens by that fraction (inter-token latency × (1 + f), time to first token
 * unchanged), a fixed delay adds that much to every gap. Completion follows the last token.
 *
 * <p>An {@code elapsedFraction} e instead stretches all the time since the request reached the engine
 * ({@code s}): token {@code i} is released at {@code a_i + e × (a_i − s)}, so queueing, prefill (TTFT) and
 * every inter-token gap grow by e alike — what a client would see of an engine that is e slower at
 * everything. The A/B comparison's check uses it ({@code 15%elapsed}).
 *
 * <p>Why stretch delivery rather than stall decoding: llama.cpp decodes on its own native thread with no
 * hook between steps, so the only place to slow generation down is between the engine and the client.
 *
 * @param perToken    added to every inter-token gap; zero for none
 * @param gapFraction every inter-token gap is stretched by this fraction; 0 for none
 */
public record TokenDelay(Duration perToken, double gapFraction, double elapsedFraction) {

    public static final TokenDelay NONE = new TokenDelay(Duration.ZERO, 0, 0);

    public TokenDelay(Duration perToken, double gapFraction) {
        this(perToken, gapFraction, 0);
    }

    public TokenDelay {
        Objects.requireNonNull(perToken, "perToken");
        if (perToken.isNegative() || perToken.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("token delay (" + perToken + ") must be in [0, 10 s]");
        }
        if (!(gapFraction >= 0 && gapFraction <= 10)) {
            throw new IllegalArgumentException("token delay fraction (" + gapFraction + ") must be in [0, 10]");
        }
        if (!(elapsedFraction >= 0 && elapsedFraction <= 10)) {
            throw new IllegalArgumentException("elapsed-time fraction (" + elapsedFraction + ") must be in [0, 10]");
        }
    }

    /**
     * {@code "15%"} (stretch every gap by 15 %), {@code "15%elapsed"} (stretch all time since the request
     * arrived by 15 %, first token included), {@code "2ms"} / {@code "500us"} (add to every gap), or
     * {@code "0"} / empty for none.
     */
    public static TokenDelay parse(String text) {
        String value = Objects.requireNonNull(text, "text").strip().toLowerCase(Locale.ROOT);
        try {
            if (value.isEmpty() || value.equals("0") || value.equals("none")) {
                return NONE;
            }
            if (value.endsWith("%elapsed")) {
                return new TokenDelay(Duration.ZERO, 0, number(value, "%elapsed".length()) / 100);
            }
            if (value.endsWith("%")) {
                return new TokenDelay(Duration.ZERO, Double.parseDouble(value.substring(0, value.length() - 1)) / 100);
            }
            if (value.endsWith("us")) {
                return new TokenDelay(Duration.ofNanos(Math.round(number(value, 2) * 1e3)), 0);
            }
            if (value.endsWith("ms")) {
                return new TokenDelay(Duration.ofNanos(Math.round(number(value, 2) * 1e6)), 0);
            }
        } catch (NumberFormatException e) {
            // falls through to the message below, which says what is accepted
        }
        throw new IllegalArgumentException("token delay '" + text + "': expected a percentage of each inter-token gap"
                + " (e.g. 15%), of all time since the request arrived (e.g. 15%elapsed), a duration per token (e.g."
                + " 2ms or 500us), or 0 for none");
    }

    private static double number(String value, int suffixLength) {
        return Double.parseDouble(value.substring(0, value.length() - suffixLength));
    }

    public boolean isNone() {
        return perToken.isZero() && gapFraction == 0 && elapsedFraction == 0;
    }

    /** Release time of token {@code index} produced at {@code producedNanos}; the first token at {@code firstNanos}. */
    long releaseNanos(int index, long producedNanos, long firstNanos) {
        return releaseNanos(index, producedNanos, firstNanos, producedNanos);
    }

    /** As above, for a request that reached the engine at {@code submittedNanos}. */
    long releaseNanos(int index, long producedNanos, long firstNanos, long submittedNanos) {
        return producedNanos + Math.round(gapFraction * (producedNanos - firstNanos))
                + Math.round(elapsedFraction * (producedNanos - submittedNanos)) + index * perToken.toNanos();
    }

    @Override
    public String toString() {
        if (isNone()) {
            return "none";
        }
        StringBuilder text = new StringBuilder();
        if (gapFraction != 0) {
            text.append(String.format(Locale.ROOT, "+%s %% per inter-token gap", Double.toString(gapFraction * 100)));
        }
        if (elapsedFraction != 0) {
            text.append(text.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT,
                    "+%s %% of all time since the request arrived", Double.toString(elapsedFraction * 100)));
        }
        if (!perToken.isZero()) {
            text.append(text.isEmpty() ? "" : ", ").append(String.format(Locale.ROOT, "+%.3f ms per token",
                    perToken.toNanos() / 1e6));
        }
        return text.toString();
    }
}
