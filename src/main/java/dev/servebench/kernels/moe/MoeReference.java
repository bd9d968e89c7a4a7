package dev.servebench.kernels.moe;

import dev.servebench.kernels.nvfp4.Bf16;
import dev.servebench.kernels.nvfp4.E2m1;
import dev.servebench.kernels.nvfp4.E4m3;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Objects;

/**
 * The scalar Java W4A16 MoE (the numerics of {@code sb_moe_w4a16}, docs/kernels-moe.md, W4A16 numerics):
 * <ol>
 *   <li>stable permutation of the (token, slot) pairs by (expert, token, slot);</li>
 *   <li>per expert, GEMM1: {@code u = (W_up . x) * g13}, {@code g = (W_gate . x) * g13} with weights decoded
 *       exactly ({@code E2M1 * E4M3}) and fp32 sums; the global scale multiplies the finished sum;</li>
 *   <li>{@code h = bf16_rne(silu(g) * u)} ({@link MoeMath#silu});</li>
 *   <li>GEMM2: {@code y = (W2 . h) * g2};</li>
 *   <li>{@code out[t] = 0 + w_0 y_0 + ... + w_{k-1} y_{k-1}} in slot order, fp32.</li>
 * </ol>
 * Each weight row is decoded once per expert and used for all of that expert's tokens. Dot products sum
 * in 16 lanes (lane l takes elements i = l mod 16 in increasing i) reduced pairwise (l + 8, + 4, + 2,
 * + 1): the scalar C build uses the same order and reproduces this class bit for bit.
 */
public final class MoeReference {

    /** E2M1(code) * E4M3(scale) for all 256 x 16 pairs; exact in fp32. */
    private static final float[] DECODED = new float[256 * 16];
    private static final int LANES = 16;

    static {
        for (int s = 0; s < 256; s++) {
            for (int c = 0; c < 16; c++) {
                DECODED[s * 16 + c] = E2m1.decode(c) * E4m3.decode(s);
            }
        }
    }

    private MoeReference() {
    }

    /** The output, fp32 [T, H]. */
    public static float[] forward(MoeShape shape, MoeWeights weights, MoeInputs inputs) {
        return run(shape, weights, inputs, false).out();
    }

    /** The output and, per element, the bound on |native - reference| of {@link MoeErrorBound}. */
    public static BoundedOutput forwardWithBounds(MoeShape shape, MoeWeights weights, MoeInputs inputs) {
        return run(shape, weights, inputs, true);
    }

    /** Output fp32 [T*H] and the per-element error bound (null from {@link #forward}). */
    public record BoundedOutput(float[] out, double[] bound) {
    }

    private static BoundedOutput run(MoeShape shape, MoeWeights weights, MoeInputs inputs, boolean bounds) {
        requireMatching(shape, weights, inputs);
        inputs.requireIdsInRange();
        Routing routing = inputs.routing();
        int tokens = inputs.tokens();
        int hidden = shape.hidden();
        int inter = shape.inter();
        int topK = shape.topK();
        int pairs = Math.multiplyExact(tokens, topK);

        // Stable counting sort: position -> pair, pair -> position, expert -> first position.
        int[] first = new int[shape.experts() + 1];
        for (int p = 0; p < pairs; p++) {
            first[routing.id(p / topK, p % topK) + 1]++;
        }
        for (int e = 0; e < shape.experts(); e++) {
            first[e + 1] += first[e];
        }
        int[] next = first.clone();
        int[] pairAt = new int[pairs];
        int[] positionOf = new int[pairs];
        for (int p = 0; p < pairs; p++) {
            int position = next[routing.id(p / topK, p % topK)]++;
            pairAt[position] = p;
            positionOf[p] = position;
        }

        float[] x = inputs.activations();
        Gemm gemm1 = new Gemm(weights.w13Packed(), weights.w13Scales(), hidden, bounds);
        Gemm gemm2 = new Gemm(weights.w2Packed(), weights.w2Scales(), inter, bounds);
        float[] ug = new float[Math.multiplyExact(pairs, 2 * inter)];
        double[] ugDelta = bounds ? new double[ug.length] : null;
        float[] h = new float[Math.multiplyExact(pairs, inter)];
        double[] hDelta = bounds ? new double[h.length] : null;
        float[] y = new float[Math.multiplyExact(pairs, hidden)];
        double[] yDelta = bounds ? new double[y.length] : null;

        for (int e = 0; e < shape.experts(); e++) {
            int begin = first[e];
            int end = first[e + 1];
            if (begin == end) {
                continue;
            }
            float g13 = weights.w13Global(e);
            for (int r = 0; r < 2 * inter; r++) {
                gemm1.decodeRow((long) e * 2 * inter + r);
                for (int position = begin; position < end; position++) {
                    int token = pairAt[position] / topK;
                    int at = position * 2 * inter + r;
                    float dot = gemm1.dot(x, token * hidden, null, 0);
                    ug[at] = dot * g13;
                    if (bounds) {
                        ugDelta[at] = MoeErrorBound.scaled(dot, MoeErrorBound.dot(0, gemm1.sumAbsProducts,
                                gemm1.sumAbsWeights, hidden), g13);
                    }
                }
            }
            for (int position = begin; position < end; position++) {
                for (int i = 0; i < inter; i++) {
                    int upAt = position * 2 * inter + i;
                    int gateAt = upAt + inter;
                    float a = MoeMath.silu(ug[gateAt]) * ug[upAt];
                    h[position * inter + i] = Bf16.toFloat(Bf16.fromFloat(a));
                    if (bounds) {
                        double da = MoeErrorBound.siluProduct(ug[upAt], ugDelta[upAt], ug[gateAt], ugDelta[gateAt]);
                        hDelta[position * inter + i] = MoeErrorBound.bf16(a, da);
                    }
                }
            }
            float g2 = weights.w2Global(e);
            for (int r = 0; r < hidden; r++) {
                gemm2.decodeRow((long) e * hidden + r);
                for (int position = begin; position < end; position++) {
                    int at = position * hidden + r;
                    float dot = gemm2.dot(h, position * inter, hDelta, position * inter);
                    y[at] = dot * g2;
                    if (bounds) {
                        yDelta[at] = MoeErrorBound.scaled(dot, MoeErrorBound.dot(gemm2.sumAbsWeightTimesDelta,
                                gemm2.sumAbsProducts, gemm2.sumAbsWeights, inter), g2);
                    }
                }
            }
        }

        float[] out = new float[Math.multiplyExact(tokens, hidden)];
        double[] bound = bounds ? new double[out.length] : null;
        for (int t = 0; t < tokens; t++) {
            for (int r = 0; r < hidden; r++) {
                float sum = 0f;
                double weightedDelta = 0;
                double absProducts = 0;
                for (int j = 0; j < topK; j++) {
                    float w = routing.weight(t, j);
                    int at = positionOf[t * topK + j] * hidden + r;
                    sum += w * y[at];
                    if (bounds) {
                        weightedDelta += Math.abs(w) * yDelta[at];
                        absProducts += Math.abs((double) w * y[at]);
                    }
                }
                out[t * hidden + r] = sum;
                if (bounds) {
                    bound[t * hidden + r] = MoeErrorBound.combine(weightedDelta, absProducts, topK);
                }
            }
        }
        return new BoundedOutput(out, bound);
    }

    static void requireMatching(MoeShape shape, MoeWeights weights, MoeInputs inputs) {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(weights, "weights");
        Objects.requireNonNull(inputs, "inputs");
        if (!weights.shape().equals(shape)) {
            throw new IllegalArgumentException("weights are for " + weights.shape() + "; expected " + shape);
        }
        if (!inputs.shape().equals(shape)) {
            throw new IllegalArgumentException("inputs are for " + inputs.shape() + "; expected " + shape);
        }
    }

    /** One weight matrix [rows, K]: decodes a row at a time and dots it with activation rows. */
    private static final class Gemm {
        private final MemorySegment packed;
        private final MemorySegment scales;
        private final int k;
        private final boolean bounds;
        private final byte[] packedRow;
        private final byte[] scaleRow;
        private final float[] row;
        private final float[] lanes = new float[LANES];
        double sumAbsProducts;
        double sumAbsWeights;
        double sumAbsWeightTimesDelta;

        Gemm(MemorySegment packed, MemorySegment scales, int k, boolean bounds) {
            this.packed = packed;
            this.scales = scales;
            this.k = k;
            this.bounds = bounds;
            this.packedRow = new byte[k / 2];
            this.scaleRow = new byte[k / 16];
            this.row = new float[k];
        }

        void decodeRow(long globalRow) {
            MemorySegment.copy(packed, ValueLayout.JAVA_BYTE, globalRow * (k / 2), packedRow, 0, k / 2);
            MemorySegment.copy(scales, ValueLayout.JAVA_BYTE, globalRow * (k / 16), scaleRow, 0, k / 16);
            for (int i = 0; i < k; i += 2) {
                int b = packedRow[i / 2] & 0xFF;
                int base = (scaleRow[i / 16] & 0xFF) * 16;
                row[i] = DECODED[base + (b & 0xF)];
                row[i + 1] = DECODED[base + (b >>> 4)];
            }
            if (bounds) {
                double sum = 0;
                for (int i = 0; i < k; i++) {
                    sum += Math.abs(row[i]);
                }
                sumAbsWeights = sum;
            }
        }

        /**
         * The decoded row . a[offset .. offset+K) in the reference order; with bounds also the sums of
         * |w a| and of |w| * delta (delta may be null: zero).
         */
        float dot(float[] a, int offset, double[] delta, int deltaOffset) {
            Arrays.fill(lanes, 0f);
            for (int i = 0; i < k; i += LANES) {
                for (int l = 0; l < LANES; l++) {
                    lanes[l] += row[i + l] * a[offset + i + l];
                }
            }
            for (int width = LANES / 2; width >= 1; width /= 2) {
                for (int l = 0; l < width; l++) {
                    lanes[l] += lanes[l + width];
                }
            }
            if (bounds) {
                double products = 0;
                double weighted = 0;
                for (int i = 0; i < k; i++) {
                    products += Math.abs((double) row[i] * a[offset + i]);
                    if (delta != null) {
                        weighted += Math.abs(row[i]) * delta[deltaOffset + i];
                    }
                }
                sumAbsProducts = products;
                sumAbsWeightTimesDelta = weighted;
            }
            return lanes[0];
        }
    }
}
