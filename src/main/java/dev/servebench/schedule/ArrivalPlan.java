package dev.servebench.schedule;

import java.util.Arrays;
import java.util.Objects;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.AhrensDieterMarsagliaTsangGammaSampler;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.sampling.distribution.ZigguratSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * When each request of a load point is meant to be sent: offsets in integer nanoseconds from the
 * benchmark start, non-decreasing, the first at 0.
 *
 * <p>Choices, compared with the reference tools (docs/reference-semantics.md, Arrivals):
 * <ul>
 *   <li>Request 0 is due at t = 0, as in SGLang (vLLM waits a first gap). So {@code n} requests use
 *       {@code n - 1} gaps and the expected span is {@code (n - 1)/rate}.</li>
 *   <li>The plan is an absolute schedule: offset i is the cumulative sum of the first i gaps and the
 *       driver sends at {@code start + offset}, so a late send does not push later ones back (it catches
 *       up, like vLLM; SGLang sleeps relative to the previous send and drifts).</li>
 *   <li>No rescaling: vLLM (PR #21108) stretches the cumulative sums so the last offset is exactly
 *       {@code N/rate}; that hides the sampling variance of the span, which is part of the process
 *       being simulated, so we keep the drawn gaps as they are.</li>
 *   <li>Gaps come from commons-rng samplers on our own seeded generator, so the distribution matches
 *       numpy's but the individual draws do not (numpy's MT19937 streams are not reproduced).</li>
 * </ul>
 */
public final class ArrivalPlan {

    /**
     * Mixed into the seed so the arrival stream differs from the dataset streams drawn with the same
     * user seed; otherwise gap i and prompt length i would come from the same uniform draws.
     */
    private static final long STREAM = 0x5EED_A771_7A15_0001L;

    private static final double NANOS_PER_SECOND = 1e9;

    private final ArrivalProcess process;
    private final long seed;
    private final long[] offsets;

    private ArrivalPlan(ArrivalProcess process, long seed, long[] offsets) {
        this.process = process;
        this.seed = seed;
        this.offsets = offsets;
    }

    /** Draws the send offsets of {@code n} requests (n may be 0) for {@code process}. */
    public static ArrivalPlan plan(ArrivalProcess process, int n, long seed) {
        Objects.requireNonNull(process, "process");
        if (n < 0) {
            throw new IllegalArgumentException("n (" + n + ") must be >= 0");
        }
        long[] offsets = switch (process) {
            case ArrivalProcess.AllAtOnce() -> new long[n];
            case ArrivalProcess.Poisson(double rate) ->
                    cumulative(n, ZigguratSampler.Exponential.of(rng(seed), meanGapNanos(rate)));
            case ArrivalProcess.Gamma g when g.isConstant() -> constant(n, meanGapNanos(g.ratePerSecond()));
            case ArrivalProcess.Gamma(double rate, double burstiness) -> cumulative(n,
                    AhrensDieterMarsagliaTsangGammaSampler.of(rng(seed), burstiness,
                            meanGapNanos(rate) / burstiness));
        };
        return new ArrivalPlan(process, seed, offsets);
    }

    public ArrivalProcess process() {
        return process;
    }

    public long seed() {
        return seed;
    }

    public int size() {
        return offsets.length;
    }

    /** Intended send time of request {@code i}, in nanoseconds after the benchmark start. */
    public long offsetNanos(int i) {
        return offsets[i];
    }

    /** The last offset (0 for an empty plan or one request). */
    public long spanNanos() {
        return offsets.length == 0 ? 0 : offsets[offsets.length - 1];
    }

    /** A copy of all offsets. */
    public long[] toArray() {
        return offsets.clone();
    }

    @Override
    public String toString() {
        return "ArrivalPlan[" + process + ", n=" + offsets.length + ", seed=" + seed + ", span=" + spanNanos()
                + " ns]";
    }

    private static UniformRandomProvider rng(long seed) {
        return RandomSource.XO_RO_SHI_RO_128_PP.create(seed ^ STREAM);
    }

    private static double meanGapNanos(double ratePerSecond) {
        return NANOS_PER_SECOND / ratePerSecond;
    }

    private static long[] cumulative(int n, ContinuousSampler gapNanos) {
        long[] offsets = new long[n];
        // Summing in double and rounding each sum (not each gap) keeps rounding errors from accumulating;
        // Math.round is monotonic, so the offsets stay non-decreasing.
        double sum = 0;
        for (int i = 1; i < n; i++) {
            sum += gapNanos.sample();
            offsets[i] = toNanos(sum);
        }
        return offsets;
    }

    private static long[] constant(int n, double gapNanos) {
        long[] offsets = new long[n];
        // i * gap rather than a running sum, so the spacing has no drift at all.
        for (int i = 1; i < n; i++) {
            offsets[i] = toNanos(i * gapNanos);
        }
        return offsets;
    }

    private static long toNanos(double nanos) {
        if (nanos >= Long.MAX_VALUE) {
            throw new IllegalArgumentException("arrival plan spans more than " + Long.MAX_VALUE
                    + " ns; the request rate is too low for this many requests");
        }
        return Math.round(nanos);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrivalPlan other && process.equals(other.process) && seed == other.seed
                && Arrays.equals(offsets, other.offsets);
    }

    @Override
    public int hashCode() {
        return Objects.hash(process, seed, Arrays.hashCode(offsets));
    }
}
