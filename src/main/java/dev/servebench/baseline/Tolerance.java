package dev.servebench.baseline;

import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.Statistic;
import dev.servebench.metric.TokenBasis;
import dev.servebench.metric.Unit;
import java.util.EnumMap;
import java.util.Map;

/**
 * How large a relative change of a metric's median the gate tolerates before it may call it a regression or an
 * improvement, and how sure it must be ({@code alpha}, the significance level). Defaults come from the kind of
 * metric (see {@link #defaultFraction(MetricId)} and docs/gate.md); {@code overrides} replaces them per metric.
 *
 * @param overrides per-metric tolerance as a fraction (0.05 = 5 %), each >= 0 and finite
 * @param alpha     two-sided significance level of the tests, in (0, 0.5)
 */
public record Tolerance(Map<MetricId, Double> overrides, double alpha) {

    public static final double DEFAULT_ALPHA = 0.05;

    /** What {@link #pairedDefaults()} tolerates for means and medians. */
    public static final double PAIRED_CENTRAL_FRACTION = 0.05;

    public Tolerance {
        overrides = Map.copyOf(overrides);
        overrides.forEach((metric, fraction) -> {
            if (!(fraction >= 0) || Double.isInfinite(fraction)) {
                throw new IllegalArgumentException("tolerance of " + metric.id() + " (" + fraction
                        + ") must be a finite fraction >= 0");
            }
        });
        if (!(alpha > 0 && alpha < 0.5)) {
            throw new IllegalArgumentException("alpha (" + alpha + ") must be in (0, 0.5)");
        }
    }

    /** Default fractions for every metric, alpha 0.05. */
    public static Tolerance defaults() {
        return new Tolerance(Map.of(), DEFAULT_ALPHA);
    }

    /**
     * The A/B comparison's defaults ({@code servebench compare}): as {@link #defaults()}, but means and medians
     * tolerate {@value #PAIRED_CENTRAL_FRACTION} instead of 10 %. Why smaller: the 10 % of the history gate
     * covers two to three times the drift between runs made minutes to days apart; A and B measured in the same
     * rounds leave only the per-round noise, whose median over 12 rounds varies by 1–2 % on the 2-core VM
     * (per-round SD 0.02–0.06, docs/gate.md "Paired tolerances"), so 5 % is again two to three times the noise.
     * Percentiles keep their tolerances: a p99 of 32 requests is their maximum, as noisy paired as unpaired.
     */
    public static Tolerance pairedDefaults() {
        Map<MetricId, Double> central = new EnumMap<>(MetricId.class);
        for (MetricId metric : MetricId.values()) {
            boolean meanOrMedian = metric.statistic()
                    .map(s -> s.kind() == Statistic.Kind.MEAN || s.kind() == Statistic.Kind.MEDIAN).orElse(false);
            if (metric.direction() != Direction.INFORMATIONAL && meanOrMedian) {
                central.put(metric, PAIRED_CENTRAL_FRACTION);
            }
        }
        return new Tolerance(central, DEFAULT_ALPHA);
    }

    public Tolerance withOverride(MetricId metric, double fraction) {
        Map<MetricId, Double> changed = new EnumMap<>(MetricId.class);
        changed.putAll(overrides);
        changed.put(metric, fraction);
        return new Tolerance(changed, alpha);
    }

    public Tolerance withAlpha(double newAlpha) {
        return new Tolerance(overrides, newAlpha);
    }

    /** The tolerated relative change of {@code metric}, as a fraction. */
    public double fractionFor(MetricId metric) {
        Double override = overrides.get(metric);
        return override != null ? override : defaultFraction(metric);
    }

    /**
     * Default by kind. The tolerance is the smallest change worth failing a build for, set at two to three times
     * the run-to-run noise such a measurement usually has at a fixed load point: whole-run averages (throughputs)
     * are the steadiest, central latencies follow, tails and extremes are driven by a few requests.
     */
    public static double defaultFraction(MetricId metric) {
        if (metric.direction() == Direction.INFORMATIONAL) {
            return 0;
        }
        if (metric.statistic().isPresent()) {
            Statistic statistic = metric.statistic().get();
            return switch (statistic.kind()) {
                case MEAN, MEDIAN -> 0.10;
                case PERCENTILE -> statistic.rank() <= 95 ? 0.10 : statistic.rank() <= 99 ? 0.15 : 0.25;
                case STD, MAX -> 0.25;
            };
        }
        if (metric.unit() == Unit.TOKENS_PER_SECOND && metric.tokenBasis() == TokenBasis.TOKEN_EVENTS) {
            return 0.10; // a peak: the maximum of one-second buckets, fewer tokens behind it than the whole-run rate
        }
        if (metric.unit() == Unit.TOKENS_PER_SECOND || metric.unit() == Unit.REQUESTS_PER_SECOND) {
            return 0.05;
        }
        return 0.01; // request counts (completed, failed): with a fixed prompt count any loss is real
    }
}
