package dev.servebench.baseline;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Rounds of one A/B load point in which A and B visibly did not run on the same machine: the machine speed
 * probe timed just before A's measurement and the one just before B's disagree by more than
 * {@link #MAX_LOG_DEVIATION} (in log, about 22 %) beyond the comparison's usual disagreement (the median
 * log probe ratio over its rounds). Pairing cancels whatever slows both sides of a round alike; a neighbour's
 * burst that lands on one side only is exactly what it cannot cancel, and Yuen's trimming removes at most
 * 20 % of the rounds at each end. Measured on the 2-core VM (docs/gate.md, "Disturbed rounds"): in quiet
 * comparisons the probes of a round agree within about 0.1, beside a build single rounds differ by 0.4–1.6.
 *
 * <p>Why the median and not 1: a candidate that loads the machine itself (every B probe slower) shifts every
 * round alike; that shift is the candidate's doing, and none of its rounds is set aside for it. Why at most a
 * quarter of the rounds, the most disagreeing first: when more disagree the whole comparison ran on a
 * machine busy in every round (measured beside four other sessions' builds, every round of a 6-round
 * comparison disagreed); setting them all aside would leave nothing. Such a point is {@link #tooMany()}: what
 * it shows despite the disturbance stands, but its "no change" is not trusted ({@link PairedGate}). Measured on
 * the campaign's 96 recordings: more than a quarter of 12 rounds disagreed only in comparisons made beside
 * builds (5 of 6 of those), never in the 90 made at the machine's own load (at most 3 there).
 *
 * @param rounds indexes (round − 1) set aside, ascending
 * @param of     rounds of the point
 * @param kept   rounds whose probes disagreed as much but were kept, beyond the quarter
 */
public record DisturbedRounds(List<Integer> rounds, int of, int kept) {

    /** At most this share of a point's rounds is set aside. */
    public static final double MAX_SHARE = 0.25;

    /** log(B probe / A probe) further than this from the median is a disturbed round. */
    public static final double MAX_LOG_DEVIATION = 0.2;

    /** With fewer rounds probed on both sides there is no usual disagreement to compare with. */
    static final int MIN_PROBED_ROUNDS = 3;

    public DisturbedRounds {
        rounds = List.copyOf(rounds);
        if (of < 0 || kept < 0 || rounds.stream().anyMatch(r -> r < 0 || r >= of)) {
            throw new IllegalArgumentException("set-aside rounds " + rounds + " must lie in [0, " + of
                    + "), kept (" + kept + ") >= 0");
        }
    }

    /** The disturbed rounds of {@code point}, from the probes of the rounds both sides measured. */
    public static DisturbedRounds of(PairedPoint point) {
        List<Integer> probed = new ArrayList<>();
        List<Double> logRatios = new ArrayList<>();
        for (int round = 0; round < point.rounds(); round++) {
            double a = point.probesA().get(round);
            double b = point.probesB().get(round);
            if (a > 0 && b > 0 && Double.isFinite(a) && Double.isFinite(b)) {
                probed.add(round);
                logRatios.add(Math.log(b / a));
            }
        }
        if (probed.size() < MIN_PROBED_ROUNDS) {
            return new DisturbedRounds(List.of(), point.rounds(), 0);
        }
        double usual = Samples.median(logRatios.stream().mapToDouble(Double::doubleValue).toArray());
        List<Integer> disagreeing = new ArrayList<>();
        for (int i = 0; i < probed.size(); i++) {
            if (Math.abs(logRatios.get(i) - usual) > MAX_LOG_DEVIATION) {
                disagreeing.add(i);
            }
        }
        disagreeing.sort(Comparator.comparingDouble((Integer i) -> Math.abs(logRatios.get(i) - usual)).reversed());
        int limit = (int) Math.floor(MAX_SHARE * point.rounds());
        List<Integer> setAside = disagreeing.stream().limit(limit).map(probed::get).sorted().toList();
        return new DisturbedRounds(setAside, point.rounds(), disagreeing.size() - setAside.size());
    }

    public boolean contains(int roundIndex) {
        return rounds.contains(roundIndex);
    }

    /**
     * Whether a comparison planned for {@code planned} rounds should measure one more round to replace a disturbed
     * one: at some point fewer than {@code planned} rounds had probes that agreed. Decided from the probes alone,
     * never from the metrics, so adding rounds cannot go looking for a difference.
     */
    public static boolean replacementWanted(List<PairedPoint> points, int planned) {
        return points.stream().anyMatch(point -> point.rounds() - of(point).disagreeing() < planned);
    }

    /** Rounds whose probes disagreed: those set aside and those kept. */
    public int disagreeing() {
        return rounds.size() + kept;
    }

    /** More rounds disagreed than may be set aside: some disturbed rounds had to be kept. */
    public boolean tooMany() {
        return kept > 0;
    }

    /** Says why a point that is {@link #tooMany()} cannot show that nothing changed. */
    public String tooManyReason() {
        return "A's and B's machine probes disagreed in " + disagreeing() + " of " + of
                + " rounds, more than the quarter that may be set aside, so the disturbed rounds that were kept"
                + " could hide a change; re-run with more rounds or on a quieter machine";
    }

    /** Nothing set aside and nothing kept despite disagreeing: nothing to say. */
    public boolean isEmpty() {
        return rounds.isEmpty() && kept == 0;
    }

    /** Says which rounds were set aside and why, for the verdict's message. */
    public String describe() {
        String which = rounds.stream().map(r -> String.valueOf(r + 1)).collect(Collectors.joining(", "));
        String disagreed = "A's and B's machine probes disagreed by more than "
                + Math.round(Math.expm1(MAX_LOG_DEVIATION) * 100) + " % beyond the comparison's usual";
        if (rounds.isEmpty()) {
            return kept == 0 ? "no round set aside"
                    : kept + " of " + of + " rounds kept although " + disagreed + " (at most a quarter is set aside)";
        }
        return (rounds.size() == 1 ? "round " : "rounds ") + which + " of " + of + " set aside: " + disagreed
                + (kept == 0 ? "" : "; " + kept + " more disagreed and " + (kept == 1 ? "was" : "were")
                        + " kept (at most a quarter is set aside)");
    }
}
