package dev.servebench.telemetry.counters;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Holds the server's counters over the measured phase against the client's own totals.
 *
 * <p>The scrapes bracket exactly the measured phase: the first is taken after the warmup requests have
 * finished, the second after the last measured response. With no other client on the server, generated
 * tokens, prompt tokens (when the client's number is the server's own {@code usage}) and finished requests
 * then match exactly. A difference within {@link #DEFAULT_TOLERANCE} is still called agreement because a
 * few legitimate effects move the counters by a little:
 *
 * <ul>
 * <li>servers count around the moment they answer (vLLM V1 hands a step's outputs on, then records the
 *     step's stats), so a scrape taken the instant the last response ends can miss the final step;
 *     {@link MetricsScraper#scrapeUntilStable} waits for the counters to settle;</li>
 * <li>a request the client gave up on (timeout, reset) may have generated a few tokens the client never
 *     saw;</li>
 * <li>other clients of the same server (a health checker that generates, a second benchmark) add to the
 *     server's counts only.</li>
 * </ul>
 *
 * <p>All of these are a few tokens or requests, far below 1% of any run big enough to measure, while the
 * mistakes the check exists to catch are large: counting chunks as tokens when a server packs several
 * tokens into one chunk, a usage object that counts something else, a tokenizer that differs from the
 * server's, traffic from elsewhere. The relative difference is always reported, so an exact match (0.00%)
 * and a tolerated one can be told apart.
 */
public final class TokenCrossCheck {

    /** ±1%: see the class comment. */
    public static final double DEFAULT_TOLERANCE = 0.01;

    private TokenCrossCheck() {}

    /**
     * Compares with totals taken from the server's {@code usage} objects (the client's report says so in
     * brackets).
     */
    public static CrossCheckResult compare(CounterDelta serverDelta, long clientGeneratedTokens,
                                           long clientPromptTokens, long clientRequests, double tolerance) {
        return compare(serverDelta, ClientTotals.fromUsage(clientGeneratedTokens, clientPromptTokens, clientRequests),
                tolerance);
    }

    /**
     * Compares every counter; a counter agrees when |server - client| / client <= tolerance.
     *
     * @param tolerance relative, in [0, 1]; {@link #DEFAULT_TOLERANCE} unless there is a reason
     */
    public static CrossCheckResult compare(CounterDelta serverDelta, ClientTotals client, double tolerance) {
        Objects.requireNonNull(serverDelta, "serverDelta");
        Objects.requireNonNull(client, "client");
        requireValidTolerance(tolerance);
        List<CounterCheck> checks = new ArrayList<>();
        for (CounterKind kind : CounterKind.values()) {
            checks.add(check(serverDelta.change(kind), client.count(kind), tolerance));
        }
        return new CrossCheckResult(serverDelta.flavor(), serverDelta.from(), serverDelta.to(), tolerance,
                overall(checks), checks);
    }

    static void requireValidTolerance(double tolerance) {
        if (!(tolerance >= 0 && tolerance <= 1)) {
            throw new IllegalArgumentException("tolerance (" + tolerance + ") must be a fraction in [0, 1], e.g. 0.01"
                    + " for ±1%");
        }
    }

    private static CounterCheck check(CounterChange change, ClientCount client, double tolerance) {
        CounterKind kind = change.kind();
        String clientPart = "client " + count(client.value()) + " (" + client.source() + ")";
        return switch (change) {
            case CounterChange.Increased increased -> compared(increased, client, clientPart, tolerance);
            case CounterChange.Reset reset -> new CounterCheck(kind, reset.metricName(), null, client.value(),
                    client.source(), null, CrossCheckVerdict.COUNTER_RESET,
                    "server's " + kind.adjective() + " counter went back during the run (" + reset.detail()
                            + "; restarted?), " + clientPart + " — not checked");
            case CounterChange.Missing missing -> new CounterCheck(kind, null, null, client.value(), client.source(),
                    null, CrossCheckVerdict.SERVER_HAS_NO_COUNTER,
                    "server has no " + kind.adjective() + " counter (" + missing.detail() + "), " + clientPart
                            + " — not checked");
        };
    }

    private static CounterCheck compared(CounterChange.Increased increased, ClientCount client, String clientPart,
                                         double tolerance) {
        double server = increased.increase();
        long expected = client.value();
        // Boxed on both branches: a primitive branch would unbox the null one.
        Double relative = expected == 0
                ? (server == 0 ? Double.valueOf(0.0) : null)
                : Double.valueOf((server - expected) / expected);
        boolean agree = relative != null && Math.abs(relative) <= tolerance;
        StringBuilder line = new StringBuilder("server counted ").append(count(server)).append(' ')
                .append(increased.kind().noun()).append(", ").append(clientPart);
        if (relative != null && server != expected) {
            line.append(": ").append(String.format(Locale.US, "%+.2f%%", relative * 100))
                    .append(agree ? ", within ±" : ", beyond ±").append(percent(tolerance));
        }
        line.append(agree ? " — agree" : " — disagree");
        return new CounterCheck(increased.kind(), increased.metricName(), server, expected, client.source(), relative,
                agree ? CrossCheckVerdict.AGREE : CrossCheckVerdict.DISAGREE, line.toString());
    }

    private static CrossCheckVerdict overall(List<CounterCheck> checks) {
        if (checks.stream().anyMatch(c -> c.verdict() == CrossCheckVerdict.DISAGREE)) {
            return CrossCheckVerdict.DISAGREE;
        }
        if (checks.stream().anyMatch(c -> c.verdict() == CrossCheckVerdict.COUNTER_RESET)) {
            return CrossCheckVerdict.COUNTER_RESET;
        }
        return checks.stream().anyMatch(c -> c.verdict() == CrossCheckVerdict.AGREE)
                ? CrossCheckVerdict.AGREE
                : CrossCheckVerdict.SERVER_HAS_NO_COUNTER;
    }

    /** 8192 → "8,192"; a fractional count (never seen from a real server) keeps one decimal. */
    static String count(double value) {
        return value == Math.rint(value) && Math.abs(value) < 9e15
                ? String.format(Locale.US, "%,d", (long) value)
                : String.format(Locale.US, "%,.1f", value);
    }

    /** 0.01 → "1%", 0.005 → "0.5%". */
    static String percent(double fraction) {
        return BigDecimal.valueOf(fraction).movePointRight(2).stripTrailingZeros().toPlainString() + "%";
    }
}
