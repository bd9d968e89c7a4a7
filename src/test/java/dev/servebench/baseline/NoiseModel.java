package dev.servebench.baseline;

import dev.servebench.metric.MetricId;
import dev.servebench.spec.LoadPointKey;
import java.util.SplittableRandom;

/**
 * Simulated repeat measurements: each repeat is the true value times a log-normal factor with the given
 * coefficient of variation (log-normal because run-to-run factors multiply and never go negative).
 */
record NoiseModel(int repeats, double cv) {

    NoiseModel {
        if (repeats < 1 || !(cv >= 0)) {
            throw new IllegalArgumentException("repeats >= 1, cv >= 0");
        }
    }

    double[] draw(double trueValue, SplittableRandom random) {
        double sigma = Math.sqrt(Math.log(1 + cv * cv));
        double[] values = new double[repeats];
        for (int i = 0; i < repeats; i++) {
            values[i] = trueValue * Math.exp(sigma * random.nextGaussian() - sigma * sigma / 2);
        }
        return values;
    }

    /**
     * Fraction of {@code trials} comparisons of {@code metric} whose verdict is {@code verdict}, baseline at
     * {@code trueValue}, current at {@code trueValue * (1 + shift)}.
     */
    double rate(MetricId metric, double trueValue, double shift, GateVerdict verdict, int trials, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        LoadPointKey point = LoadPointKey.concurrency(64);
        int hits = 0;
        for (int t = 0; t < trials; t++) {
            double[] baseline = draw(trueValue, random);
            double[] current = draw(trueValue * (1 + shift), random);
            GateOutcome outcome = GateComparison.compare(metric, point, baseline, current, Tolerance.defaults(),
                    random.nextLong());
            if (outcome.verdict() == verdict) {
                hits++;
            }
        }
        return (double) hits / trials;
    }
}
