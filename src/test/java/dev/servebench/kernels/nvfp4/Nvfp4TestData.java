package dev.servebench.kernels.nvfp4;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.SplittableRandom;

/** Inputs for the NVFP4 tests: every (scale, code) pair, and float data that hits the quantiser's edge cases. */
final class Nvfp4TestData {

    private Nvfp4TestData() {
    }

    /**
     * rows x 64 elements (4 blocks per row) where block b (row-major) has scale code b % 256 and its 16
     * elements hold all 16 codes, rotated by b so each code visits every position. 130 rows give 520
     * blocks: every scale code twice, and a second 128-row swizzle tile with 126 padding rows.
     */
    static Nvfp4Tensor everyScaleAndCode(int rows, ScaleLayout layout, float globalScale) {
        int k = 64;
        byte[] packed = new byte[rows * k / 2];
        byte[] linear = new byte[rows * k / 16];
        for (int block = 0; block < linear.length; block++) {
            linear[block] = (byte) block;
            for (int i = 0; i < 16; i += 2) {
                int even = (i + block) & 0xF;
                int odd = (i + 1 + block) & 0xF;
                packed[block * 8 + i / 2] = (byte) (even | odd << 4);
            }
        }
        return new Nvfp4Tensor(packed, linear, ScaleLayout.LINEAR, globalScale, rows, k).withLayout(layout);
    }

    /**
     * Float data with one character per block: ordinary Gaussians over six decades, zero blocks, blocks so
     * small that their scale is an E4M3 subnormal or rounds to 0, small negatives (-0 codes), exact E2M1
     * midpoints under a scale of 1, and lone outliers.
     */
    static float[] edgeCaseValues(SplittableRandom random, int rows, int k, float globalScale) {
        float[] values = new float[rows * k];
        for (int first = 0; first < values.length; first += 16) {
            int kind = random.nextInt(8);
            double magnitude = Math.pow(10, random.nextDouble(-3, 3)) * globalScale;
            for (int i = first; i < first + 16; i++) {
                values[i] = switch (kind) {
                    case 0 -> 0f;
                    case 1 -> (float) (random.nextGaussian() * globalScale * 0x1p-8); // subnormal E4M3 scales
                    case 2 -> (float) (random.nextGaussian() * globalScale * 0x1p-13); // scale rounds to 0 or 2^-9
                    case 3 -> i == first ? 6f * globalScale : -(float) (random.nextDouble() * 0.2 * globalScale);
                    case 4 -> midpoint(random, i == first) * globalScale; // sf = 1.0, ties on the E2M1 grid
                    case 5 -> i == first + random.nextInt(16) ? (float) (1e3 * magnitude) : (float) magnitude;
                    default -> (float) (random.nextGaussian() * magnitude);
                };
            }
        }
        return values;
    }

    /** A signed E2M1 midpoint (0.25, 0.75, ..., 5) or grid value; the first element pins amax to 6. */
    private static float midpoint(SplittableRandom random, boolean first) {
        float[] candidates = {0.25f, 0.75f, 1.25f, 1.75f, 2.5f, 3.5f, 5f, 0.5f, 3f, 6f};
        float value = first ? 6f : candidates[random.nextInt(candidates.length)];
        return random.nextBoolean() ? value : -value;
    }

    static MemorySegment nativeCopy(Arena arena, byte[] bytes) {
        MemorySegment segment = arena.allocate(bytes.length, 64);
        segment.copyFrom(MemorySegment.ofArray(bytes));
        return segment;
    }

    static MemorySegment nativeCopy(Arena arena, float[] values) {
        MemorySegment segment = arena.allocate((long) values.length * Float.BYTES, 64);
        MemorySegment.copy(values, 0, segment, ValueLayout.JAVA_FLOAT, 0, values.length);
        return segment;
    }
}
