package dev.servebench.kernels.moe;

import dev.servebench.kernels.nvfp4.Bf16;

/**
 * The rigorous bound on |native - reference| for one element of the W4A16 MoE output (docs/kernels-moe.md
 * derives it). Both sides compute the same formula; they may differ only in the order of the fp32 sums
 * inside the two GEMMs' dot products, which the contract limits to a summation tree of depth at most
 * {@link #depth(long) K/8 + 8}. The weight x activation products are exact in fp32 (at most 6 + 8
 * significant bits), so with unit roundoff u = 2^-24 and gamma(n) = n*u / (1 - n*u) the standard
 * result bounds each dot product's error by gamma(depth) * sum |w_i * a_i|, plus an absolute term for
 * flushed subnormals (AVX-512 BF16 dot products flush them).
 *
 * <p>The methods propagate such differences through the steps of the kernel; every term is an upper
 * bound, evaluated in double and enlarged by 2^-20 relative at every step to absorb the rounding of
 * the bound's own arithmetic.
 */
public final class MoeErrorBound {

    /** fp32 unit roundoff. */
    public static final double U = 0x1p-24;
    /** Bound on |silu'|: the maximum of silu' is 1.0998... at g = 2.3994... */
    static final double SILU_LIPSCHITZ = 1.1;
    /**
     * Relative error of {@link MoeMath#silu} against the true silu: one fp32 rounding (2^-24) plus the
     * double evaluation (exp within 2^-49, then one add and one divide): below 2^-24 + 2^-46.
     */
    static final double SILU_RELATIVE = 0x1p-24 + 0x1p-46;
    /** Largest error of flushing one subnormal to zero, the smallest normal fp32. */
    private static final double FLUSH = 0x1p-126;
    /** Half the smallest fp32 subnormal: the absolute error of one gradual-underflow rounding. */
    private static final double TINY = 0x1p-150;
    private static final double SAFETY = 1 + 0x1p-20;

    private MoeErrorBound() {
    }

    /** gamma(n) = n*u / (1 - n*u): the error factor of n successive fp32 roundings. */
    public static double gamma(long n) {
        double nu = n * U;
        if (nu >= 1) {
            throw new IllegalArgumentException("gamma(" + n + ") undefined: n*u >= 1");
        }
        return nu / (1 - nu);
    }

    /**
     * The summation depth every implementation must stay within for a dot product of length K: the
     * scalar/reference 16 lanes + 4 reduction levels (K/16 + 4), AVX-512 BF16 (2 roundings per dpbf16
     * per lane, K/16 + 6), AVX2 8 lanes (K/8 + 3).
     */
    public static long depth(long k) {
        return k / 8 + 8;
    }

    /**
     * Bound on |D' - D| between two implementations' fp32 dot products of the same weight row W (length
     * K) with activations a (reference) and a' (other side) where |a'_i - a_i| <= delta_i:
     * {@code (1 + g) * sum|W_i| delta_i + 2 g sum|W_i a_i| + 2 * 2^-126 (sum|W_i| + 2K)}, g = gamma(depth(K)).
     *
     * @param sumAbsWeightTimesDelta sum |W_i| delta_i (0 when both sides use identical activations)
     * @param sumAbsProducts         sum |W_i a_i|
     * @param sumAbsWeights          sum |W_i|
     */
    public static double dot(double sumAbsWeightTimesDelta, double sumAbsProducts, double sumAbsWeights, long k) {
        double g = gamma(depth(k));
        return SAFETY * ((1 + g) * sumAbsWeightTimesDelta + 2 * g * sumAbsProducts + 2 * FLUSH * (sumAbsWeights + 2.0 * k));
    }

    /** Bound on |fl(D' * s) - fl(D * s)| given |D' - D| <= dotDelta. */
    public static double scaled(float dot, double dotDelta, float scale) {
        double s = Math.abs((double) scale);
        double d = Math.abs((double) dot);
        return SAFETY * (s * dotDelta * (1 + U) + 2 * U * d * s + 2 * TINY);
    }

    /**
     * Bound on |a' - a| for a = fl(silu(g) * u), given |u' - u| <= du and |g' - g| <= dg, with silu
     * evaluated by {@link MoeMath#silu} on both sides.
     */
    public static double siluProduct(float u, double du, float g, double dg) {
        double s = Math.abs((double) MoeMath.silu(g));
        double trueSilu = (s + TINY) / (1 - SILU_RELATIVE);
        double ds = SILU_LIPSCHITZ * dg * (1 + SILU_RELATIVE) + 2 * SILU_RELATIVE * trueSilu + 2 * TINY;
        double absU = Math.abs((double) u);
        double product = ds * (absU + du) + s * du;
        return SAFETY * (product + U * s * absU + U * (s + ds) * (absU + du) + 2 * TINY);
    }

    /**
     * Bound on |bf16(a') - bf16(a)| given |a' - a| <= da: exact, since round-to-nearest-even is
     * monotone, a' lies in [a - da, a + da], and every float in that interval lies between the floats
     * nearest to its ends. Zero when no bf16 rounding boundary is within reach.
     */
    public static double bf16(float a, double da) {
        float h = Bf16.toFloat(Bf16.fromFloat(a));
        float high = (float) Math.nextUp(a + da);
        float low = (float) Math.nextDown(a - da);
        double up = (double) Bf16.toFloat(Bf16.fromFloat(high)) - h;
        double down = (double) h - Bf16.toFloat(Bf16.fromFloat(low));
        return Math.max(up, down);
    }

    /**
     * Bound on the final output element: out = sum over j of fl(w_j * y_j) (k terms), given per-slot
     * |y'_j - y_j| <= dy_j: {@code (1 + g) sum|w_j| dy_j + 2 g sum|w_j y_j| + 2k * 2^-150}, g = gamma(k).
     */
    public static double combine(double sumAbsWeightTimesDelta, double sumAbsProducts, int topK) {
        double g = gamma(topK);
        return SAFETY * ((1 + g) * sumAbsWeightTimesDelta + 2 * g * sumAbsProducts + 2.0 * topK * 2 * TINY);
    }
}
