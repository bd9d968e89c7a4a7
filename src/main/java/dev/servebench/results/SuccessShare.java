package dev.servebench.results;

import java.util.Locale;

/**
 * Whether enough of a load point's requests succeeded for its numbers to describe the server: a point where
 * most requests failed would otherwise print throughputs computed from a handful of requests. Requests
 * cancelled by a time-limit cut are left out of the share (they did not fail; the cut is reported on its
 * own). Pure.
 *
 * @param recorded  requests with a record (sent), cancelled ones included
 * @param succeeded successful requests
 * @param cancelled requests cancelled by a cut
 * @param threshold the smallest successful share that is valid, in [0, 1]
 */
public record SuccessShare(int recorded, int succeeded, int cancelled, double threshold) {

    public SuccessShare {
        if (recorded < 0 || succeeded < 0 || cancelled < 0 || succeeded + cancelled > recorded) {
            throw new IllegalArgumentException("counts must satisfy 0 <= succeeded + cancelled <= recorded, got recorded="
                    + recorded + ", succeeded=" + succeeded + ", cancelled=" + cancelled);
        }
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("threshold (" + threshold + ") must be within [0, 1]");
        }
    }

    /** Requests that ended by themselves: success or failure. */
    public int judged() {
        return recorded - cancelled;
    }

    /** Successful share of the judged requests; 0 when none was judged. */
    public double rate() {
        return judged() == 0 ? 0.0 : (double) succeeded / judged();
    }

    /** Valid when at least one request was judged and the share reaches the threshold. */
    public boolean valid() {
        return judged() > 0 && succeeded > 0 && rate() >= threshold;
    }

    /** One line: {@code INVALID: 3 of 96 requests succeeded (3.1 % < 99 %)} or the valid counterpart. */
    public String describe() {
        String share = String.format(Locale.ROOT, "%s of %s requests succeeded (%s %s %s)", succeeded, judged(),
                percent(rate()), valid() ? ">=" : "<", percent(threshold));
        return (valid() ? "valid: " : "INVALID: ") + share;
    }

    private static String percent(double fraction) {
        double p = fraction * 100;
        return (p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f", p) : String.format(Locale.ROOT, "%.1f", p)) + " %";
    }
}
