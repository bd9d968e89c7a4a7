package dev.servebench.baseline;

import java.util.Optional;
import org.apache.commons.statistics.distribution.TDistribution;

/**
 * How sure a kernel figure, or a ratio of two, is: a 95 % confidence interval from the figure's per-iteration
 * values (every measurement iteration of every JMH fork, pooled), around the judged figure itself, which is the
 * one computed from the median time. Pure.
 *
 * <p>On log values, because figures are rates and a ratio is a difference of logs: a side of n iterations has
 * the sample variance s² of its log values; its median's variance is taken as (π/2)·s²/n, the large-sample
 * variance of a median of normal values (the mean's s²/n widened by the median's efficiency, 2/π). A ratio adds
 * both sides' variances and takes Student's t with the Welch–Satterthwaite degrees of freedom; one figure takes
 * t with n − 1. The interval is exp(log(point) ± t·√variance): the point value always lies inside it, so an
 * interval that lies entirely on one side of a limit never contradicts the number printed beside it.
 *
 * <p>Iterations of all forks are pooled, as JMH's own score error pools them, rather than one value per fork:
 * the kernel smoke plan runs one fork per point, so fork blocks would give no interval before every line was
 * re-measured. A shift that all iterations of one fork share (JIT decisions, page placement) is therefore not
 * in the spread of a one-fork run; re-measuring adds fresh forks, whose differences then are (docs/kernels.md,
 * "How they are judged").
 */
public final class KernelIntervals {

    /** Nominal coverage of every kernel interval. */
    public static final double CONFIDENCE = 0.95;

    /** The variance of a median of normal values over that of their mean, for large n. */
    private static final double MEDIAN_EFFICIENCY_FACTOR = Math.PI / 2;

    private KernelIntervals() {
    }

    /**
     * Why {@code samples} give no interval, or empty when they do: at least two iterations, every one a finite
     * figure above 0 (logs of them are taken).
     */
    public static Optional<String> unusable(double[] samples) {
        if (samples.length < 2) {
            return Optional.of(samples.length + (samples.length == 1 ? " iteration" : " iterations")
                    + ": an interval needs at least 2");
        }
        for (double sample : samples) {
            if (!(sample > 0 && sample < Double.POSITIVE_INFINITY)) {
                return Optional.of("an iteration's figure is " + sample + ": expected finite figures above 0");
            }
        }
        return Optional.empty();
    }

    /**
     * The interval of one figure.
     *
     * @param value   the judged figure (from the median time), above 0
     * @param samples its per-iteration figures ({@link #unusable} empty)
     */
    public static ConfidenceInterval figure(double value, double[] samples) {
        Side side = side("figure", samples);
        return interval(positive("figure", value), side.variance(), side.variance() == 0 ? 1 : side.degrees());
    }

    /**
     * The interval of {@code checked / reference}.
     *
     * @param checked          the checked figure (from the median time), above 0
     * @param checkedSamples   its per-iteration figures
     * @param reference        the reference figure, above 0
     * @param referenceSamples its per-iteration figures
     */
    public static ConfidenceInterval ratio(double checked, double[] checkedSamples, double reference,
            double[] referenceSamples) {
        Side a = side("checked", checkedSamples);
        Side b = side("reference", referenceSamples);
        double variance = a.variance() + b.variance();
        return interval(positive("checked", checked) / positive("reference", reference), variance,
                variance == 0 ? 1 : welchDegrees(a, b));
    }

    /** One side's variance of log(median) and its degrees of freedom. */
    private record Side(double variance, double degrees) {
    }

    private static Side side(String which, double[] samples) {
        unusable(samples).ifPresent(why -> {
            throw new IllegalArgumentException(which + " samples: " + why);
        });
        double[] logs = new double[samples.length];
        for (int i = 0; i < samples.length; i++) {
            logs[i] = Math.log(samples[i]);
        }
        return new Side(MEDIAN_EFFICIENCY_FACTOR * Samples.variance(logs) / logs.length, logs.length - 1);
    }

    /** Welch–Satterthwaite; a side without spread adds nothing to the sum (its term is 0). */
    private static double welchDegrees(Side a, Side b) {
        double sum = a.variance() + b.variance();
        return sum * sum / (a.variance() * a.variance() / a.degrees() + b.variance() * b.variance() / b.degrees());
    }

    private static ConfidenceInterval interval(double point, double variance, double degrees) {
        if (variance == 0) {
            // Identical iterations: the point itself, not exp(log(point)) one rounding away from it.
            return new ConfidenceInterval(point, point, CONFIDENCE);
        }
        double t = TDistribution.of(degrees).inverseCumulativeProbability(1 - (1 - CONFIDENCE) / 2);
        double halfWidth = t * Math.sqrt(variance);
        double centre = Math.log(point);
        return new ConfidenceInterval(Math.exp(centre - halfWidth), Math.exp(centre + halfWidth), CONFIDENCE);
    }

    private static double positive(String which, double value) {
        if (!(value > 0 && value < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException(which + " figure " + value + ": expected a finite figure above 0");
        }
        return value;
    }
}
