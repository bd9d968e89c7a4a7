package dev.servebench.baseline;

import java.util.Objects;

/**
 * Whether the machine itself changed speed between a baseline's runs and the run being gated, judged on the
 * machine speed probe's samples ({@code machine_probe_ms}: a fixed piece of work timed before every repeat).
 * The gate's tests see the noise of repeats within runs; a whole run on a machine that is 15 % faster or
 * slower than during the baseline's runs shifts every repeat alike, and hides or fakes a 15 % change of the
 * server. Such a run is not judged (docs/gate.md, "Machine drift").
 *
 * <p>The probe changed when its median moved by more than {@code tolerance} <em>and</em> Yuen's test finds
 * the move significant at {@code alpha}: as for the server's metrics, both are required.
 *
 * @param relativeChange (current − baseline) / baseline of the probe's median time: −0.15 is a faster machine
 */
public record MachineDrift(Status status, double baselineMedianMs, int baselineSamples, double currentMedianMs,
                           int currentSamples, double relativeChange, double pValue, double tolerance, double alpha) {

    public enum Status {
        /** Within tolerance or not significant: the server's numbers are compared. */
        STEADY,
        /** The machine's speed moved: the server's numbers are not judged. */
        DRIFTED,
        /** A side has fewer than 2 probe samples (runs recorded before the probe existed). */
        NOT_CHECKED
    }

    /** A third of the 15 % change the gate is built to find (docs/gate.md). */
    public static final double DEFAULT_TOLERANCE = 0.05;

    public MachineDrift {
        Objects.requireNonNull(status, "status");
    }

    /** Probe samples of the baseline's runs and of the current run, in milliseconds. */
    public static MachineDrift check(double[] baselineMs, double[] currentMs, double tolerance, double alpha) {
        if (!(tolerance >= 0) || Double.isInfinite(tolerance)) {
            throw new IllegalArgumentException("tolerance (" + tolerance + ") must be a finite fraction >= 0");
        }
        if (baselineMs.length < 2 || currentMs.length < 2) {
            return new MachineDrift(Status.NOT_CHECKED, Double.NaN, baselineMs.length, Double.NaN, currentMs.length,
                    Double.NaN, Double.NaN, tolerance, alpha);
        }
        double[] before = Samples.checkedCopy("baseline probe", baselineMs);
        double[] now = Samples.checkedCopy("current probe", currentMs);
        double baselineMedian = Samples.median(before);
        double currentMedian = Samples.median(now);
        double change = Samples.relativeChange(baselineMedian, currentMedian);
        double p = YuenTest.pValue(before, now);
        Status status = Math.abs(change) > tolerance && p < alpha ? Status.DRIFTED : Status.STEADY;
        return new MachineDrift(status, baselineMedian, before.length, currentMedian, now.length, change, p,
                tolerance, alpha);
    }

    /**
     * No probe comparison: an A/B comparison needs none, since drift reaches both sides of a round alike.
     */
    public static MachineDrift notChecked() {
        return check(new double[0], new double[0], DEFAULT_TOLERANCE, Tolerance.DEFAULT_ALPHA);
    }

    public boolean drifted() {
        return status == Status.DRIFTED;
    }

    /** One line for the gate's Markdown, JUnit XML and console. */
    public String message() {
        return switch (status) {
            case NOT_CHECKED -> "machine speed probe: " + (baselineSamples < 2 ? "the baseline has" : "the run has")
                    + " no probe samples (recorded before servebench timed one) → machine drift not checked";
            case STEADY, DRIFTED -> "machine speed probe: " + GateMessages.value(baselineMedianMs) + " ms (n="
                    + baselineSamples + ") → " + GateMessages.value(currentMedianMs) + " ms (n=" + currentSamples + ") ("
                    + GateMessages.percent(relativeChange) + (relativeChange < 0 ? ": faster" : relativeChange > 0 ? ": slower" : "")
                    + "), " + YuenTest.NAME + " p = " + GateMessages.probability(pValue)
                    + (pValue < alpha ? " < " : " ≥ ") + GateMessages.probability(alpha) + ", tolerance ±"
                    + GateMessages.setting(tolerance) + (drifted()
                            ? " → MACHINE DRIFT: the server's numbers are not judged against this baseline; rerun on a"
                            + " steady machine"
                            : " → steady");
        };
    }
}
