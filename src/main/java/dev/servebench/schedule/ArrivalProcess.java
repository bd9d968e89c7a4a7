package dev.servebench.schedule;

/**
 * How request arrivals are spread over time (docs/reference-semantics.md, Arrivals).
 *
 * <ul>
 *   <li>{@link AllAtOnce}: request rate {@code inf}; every request is due at t = 0 and only the
 *       concurrency limit spreads them out (the default of both SGLang and vLLM).</li>
 *   <li>{@link Poisson}: exponential gaps with mean {@code 1/rate} (SGLang's only finite-rate shape).</li>
 *   <li>{@link Gamma}: gamma gaps with the same mean and coefficient of variation
 *       {@code 1/sqrt(burstiness)} (vLLM's {@code --burstiness}); burstiness 1 is Poisson, below 1 is
 *       burstier, above 1 is more regular and {@code +inf} is constant {@code 1/rate} spacing.</li>
 * </ul>
 */
public sealed interface ArrivalProcess {

    /** Requests per second; {@code +inf} for {@link AllAtOnce}. */
    double ratePerSecond();

    /**
     * The process for the reference tools' {@code --request-rate} and {@code --burstiness} options:
     * an infinite rate means all at once (burstiness is then irrelevant but still validated), burstiness 1
     * means Poisson, anything else Gamma.
     */
    static ArrivalProcess of(double requestRate, double burstiness) {
        requirePositive("requestRate", requestRate);
        requirePositive("burstiness", burstiness);
        if (requestRate == Double.POSITIVE_INFINITY) {
            return new AllAtOnce();
        }
        return burstiness == 1.0 ? new Poisson(requestRate) : new Gamma(requestRate, burstiness);
    }

    /** Every request due immediately. */
    record AllAtOnce() implements ArrivalProcess {
        @Override
        public double ratePerSecond() {
            return Double.POSITIVE_INFINITY;
        }
    }

    /** Exponential inter-arrival gaps with mean {@code 1/ratePerSecond}. */
    record Poisson(double ratePerSecond) implements ArrivalProcess {
        public Poisson {
            requireFiniteRate(ratePerSecond);
        }
    }

    /**
     * Gamma inter-arrival gaps: shape {@code burstiness}, scale {@code 1/(ratePerSecond * burstiness)}, so
     * the mean gap is {@code 1/ratePerSecond} whatever the burstiness.
     */
    record Gamma(double ratePerSecond, double burstiness) implements ArrivalProcess {
        public Gamma {
            requireFiniteRate(ratePerSecond);
            requirePositive("burstiness", burstiness);
        }

        /** Infinite burstiness is the zero-variance limit: constant spacing. */
        public boolean isConstant() {
            return burstiness == Double.POSITIVE_INFINITY;
        }
    }

    private static void requirePositive(String name, double value) {
        // Written as !(x > 0) so that NaN is rejected too.
        if (!(value > 0)) {
            throw new IllegalArgumentException(name + " (" + value + ") must be > 0");
        }
    }

    private static void requireFiniteRate(double rate) {
        requirePositive("ratePerSecond", rate);
        if (rate == Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException(
                    "ratePerSecond (" + rate + ") must be finite (an unlimited rate is AllAtOnce)");
        }
    }
}
