package dev.servebench.kernels.moe;

/**
 * The transcendental functions of the MoE kernels, defined so that Java and C compute them bit for bit
 * alike ({@code native/src/moe_internal.h} has the same steps): every step is one IEEE-754 double
 * operation, none fused (Java never fuses; the C library is built with {@code -ffp-contract=off}).
 *
 * <p>{@link #exp}: range reduction {@code y = n*ln2 + r} with {@code n = rint(y/ln2)} and ln2 split into
 * a head with 20 trailing zero bits (so {@code n*LN2_HI} is exact) and a tail; {@code exp(r)} for
 * {@code |r| <= ln2/2} by the degree-13 Taylor polynomial in Horner form (truncation below 2^-57
 * relative); {@code 2^n} built from exponent bits. {@code y} is clamped to [-708, 708] so that
 * {@code 2^n} stays a normal double. Accuracy: within 2^-49 relative of the true exp over that range
 * (checked against {@link Math#exp} by the tests).
 */
public final class MoeMath {

    private static final double LIMIT = 708.0;
    private static final double INV_LN2 = 0x1.71547652b82fep+0;
    private static final double LN2_HI = 0x1.62e42fee00000p-1;
    private static final double LN2_LO = 0x1.a39ef35793c76p-33;
    private static final double C13 = 0x1.6124613a86d09p-33;
    private static final double C12 = 0x1.1eed8eff8d898p-29;
    private static final double C11 = 0x1.ae64567f544e4p-26;
    private static final double C10 = 0x1.27e4fb7789f5cp-22;
    private static final double C9 = 0x1.71de3a556c734p-19;
    private static final double C8 = 0x1.a01a01a01a01ap-16;
    private static final double C7 = 0x1.a01a01a01a01ap-13;
    private static final double C6 = 0x1.6c16c16c16c17p-10;
    private static final double C5 = 0x1.1111111111111p-7;
    private static final double C4 = 0x1.5555555555555p-5;
    private static final double C3 = 0x1.5555555555555p-3;
    private static final double C2 = 0x1.0000000000000p-1;
    private static final double C1 = 0x1.0000000000000p+0;
    private static final double C0 = 0x1.0000000000000p+0;

    private MoeMath() {
    }

    /** exp(y) for y clamped to [-708, 708]; NaN stays NaN. */
    public static double exp(double y) {
        if (y != y) {
            return y;
        }
        if (y > LIMIT) {
            y = LIMIT;
        }
        if (y < -LIMIT) {
            y = -LIMIT;
        }
        double n = Math.rint(y * INV_LN2);
        double r = (y - n * LN2_HI) - n * LN2_LO;
        double p = C13;
        p = p * r + C12;
        p = p * r + C11;
        p = p * r + C10;
        p = p * r + C9;
        p = p * r + C8;
        p = p * r + C7;
        p = p * r + C6;
        p = p * r + C5;
        p = p * r + C4;
        p = p * r + C3;
        p = p * r + C2;
        p = p * r + C1;
        p = p * r + C0;
        return p * Double.longBitsToDouble(((long) n + 1023L) << 52);
    }

    /** The router score {@code (float)(1 / (1 + exp(-x)))}, evaluated in double. */
    public static float sigmoid(float x) {
        return (float) (1.0 / (1.0 + exp(-(double) x)));
    }

    /** SwiGLU's {@code silu(g) = g * sigmoid(g)}, evaluated as {@code (float)(g / (1 + exp(-g)))} in double. */
    public static float silu(float g) {
        return (float) ((double) g / (1.0 + exp(-(double) g)));
    }
}
