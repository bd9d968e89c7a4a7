package dev.servebench.kernels.allreduce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;

/** Seeded bf16 inputs, their references (computed once per shape), and bf16 comparisons. */
final class AllreduceFixtures {

    /** 16 B, 12 KiB (one GLM-5 decode token), 37 units (every N leaves a remainder), 1 MiB + 80 B. */
    static final int[] COUNTS = {8, 6144, 296, 524_328};

    private static final Map<String, short[][]> INPUTS = new ConcurrentHashMap<>();
    private static final Map<String, short[][]> REFERENCES = new ConcurrentHashMap<>();
    private static final Map<String, short[]> EXPECTED = new ConcurrentHashMap<>();

    private AllreduceFixtures() {
    }

    /**
     * Per element one random sign shared by all ranks and per-rank magnitudes from 2^-20 to 2^11: the
     * fp32 sums then depend on the summation order (so the algorithms really differ) while staying
     * within one bf16 ulp of the exact sum (same signs: no cancellation). Every 29th element is a special
     * case instead: NaN (quiet and signalling), infinities, inf - inf, subnormals, overflow, signed
     * zeros and exact round-to-nearest-even ties.
     */
    static short[][] inputs(int ranks, int count) {
        return INPUTS.computeIfAbsent(ranks + "x" + count, key -> {
            SplittableRandom random = new SplittableRandom(0x5EED_0000L + 31L * ranks + count);
            short[][] in = new short[ranks][count];
            for (int i = 0; i < count; i++) {
                int sign = random.nextBoolean() ? 0x8000 : 0;
                for (int r = 0; r < ranks; r++) {
                    int exponent = 127 + random.nextInt(-20, 12);
                    in[r][i] = (short) (sign | exponent << 7 | random.nextInt(128));
                }
                if (i % 29 == 12) {
                    special(in, i, (i / 29) % 9, random);
                } else if (isCancellationProbe(ranks, i)) {
                    cancellationProbe(in, i, random);
                }
            }
            return in;
        });
    }

    /**
     * Elements where three ranks hold big, tiny and -big (others 0), tiny below half an fp32 ulp of big:
     * the fp32 sum is tiny or 0 depending on whether big and -big meet before tiny is added, so every
     * change of summation order shows. Cancellation puts these outside the one-ulp bound.
     */
    static boolean isCancellationProbe(int ranks, int i) {
        return ranks >= 3 && i % 29 == 20;
    }

    private static void cancellationProbe(short[][] in, int i, SplittableRandom random) {
        int ranks = in.length;
        int big = random.nextInt(ranks);
        int tiny = (big + random.nextInt(1, ranks)) % ranks;
        int minusBig = big;
        while (minusBig == big || minusBig == tiny) {
            minusBig = random.nextInt(ranks);
        }
        for (int r = 0; r < ranks; r++) {
            in[r][i] = 0;
        }
        int exponent = 127 + random.nextInt(0, 10);
        int mantissa = random.nextInt(128);
        in[big][i] = (short) (exponent << 7 | mantissa);
        in[minusBig][i] = (short) (0x8000 | exponent << 7 | mantissa);
        in[tiny][i] = (short) ((exponent - 26) << 7 | random.nextInt(128));
    }

    private static void special(short[][] in, int i, int kind, SplittableRandom random) {
        int ranks = in.length;
        int one = (i / 29) % ranks; // the rank that holds the odd value out
        switch (kind) {
            case 0 -> in[one][i] = (short) 0x7FC3; // quiet NaN with a payload
            case 1 -> in[one][i] = (short) 0xFF85; // signalling NaN: the result is the same NaN, made quiet
            case 2 -> in[one][i] = (short) 0x7F80; // +inf
            case 3 -> {
                in[0][i] = (short) 0x7F80;
                in[ranks - 1][i] = (short) 0xFF80; // inf - inf: the CPU's default NaN
            }
            case 4 -> {
                for (int r = 0; r < ranks; r++) {
                    in[r][i] = (short) ((random.nextBoolean() ? 0x8000 : 0) | random.nextInt(1, 128)); // subnormal
                }
            }
            case 5 -> {
                for (int r = 0; r < ranks; r++) {
                    in[r][i] = (short) 0x7F7F; // largest finite bf16: the sum overflows to +inf
                }
            }
            case 6 -> {
                for (int r = 0; r < ranks; r++) {
                    in[r][i] = (short) 0x8000; // -0 + -0 + ... stays -0
                }
                in[one][i] = (short) (random.nextBoolean() ? 0x8000 : 0x0000);
            }
            case 7, 8 -> {
                for (int r = 0; r < ranks; r++) {
                    in[r][i] = 0;
                }
                in[0][i] = (short) (kind == 7 ? 0x3F80 : 0x3F81); // 1.0 or 1.0078125
                in[ranks - 1][i] = (short) 0x3B80; // + 2^-8: exactly half a bf16 ulp, ties to even
            }
            default -> throw new IllegalArgumentException("kind " + kind);
        }
    }

    /** {@link AllreduceReference#allreduce} of {@link #inputs}, computed once per shape. */
    static short[][] reference(AllreduceAlgorithm algorithm, int ranks, int count) {
        AllreduceAlgorithm resolved = AllreduceDispatch.resolve(algorithm, ranks, 2L * count);
        return REFERENCES.computeIfAbsent(resolved + ":" + ranks + "x" + count,
                key -> AllreduceReference.allreduce(resolved, inputs(ranks, count)));
    }

    static short[] expected(int ranks, int count) {
        return EXPECTED.computeIfAbsent(ranks + "x" + count, key -> AllreduceReference.expected(inputs(ranks, count)));
    }

    static MemorySegment[] segments(Arena arena, short[][] values) {
        MemorySegment[] segments = new MemorySegment[values.length];
        for (int r = 0; r < values.length; r++) {
            segments[r] = arena.allocate(2L * values[r].length, 64);
            MemorySegment.copy(values[r], 0, segments[r], ValueLayout.JAVA_SHORT, 0, values[r].length);
        }
        return segments;
    }

    static MemorySegment[] zeroed(Arena arena, int ranks, int count) {
        MemorySegment[] segments = new MemorySegment[ranks];
        for (int r = 0; r < ranks; r++) {
            segments[r] = arena.allocate(2L * count, 64);
        }
        return segments;
    }

    static short[][] read(MemorySegment[] segments, int count) {
        short[][] values = new short[segments.length][count];
        for (int r = 0; r < segments.length; r++) {
            MemorySegment.copy(segments[r], ValueLayout.JAVA_SHORT, 0, values[r], 0, count);
        }
        return values;
    }

    /** Every rank's output equals {@code expected} bit for bit; names the first differing element. */
    static void assertBitwise(short[][] actual, short[] expected, String what) {
        for (int r = 0; r < actual.length; r++) {
            for (int i = 0; i < expected.length; i++) {
                if (actual[r][i] != expected[i]) {
                    fail("%s: rank %d element %d is 0x%04x, expected 0x%04x", what, r, i, actual[r][i] & 0xFFFF,
                            expected[i] & 0xFFFF);
                }
            }
        }
    }

    /**
     * Within one bf16 ulp of the exact sum (NaN matches any NaN; ±0 are 0 ulp apart), except at the
     * cancellation probes, which are built to miss it.
     */
    static void assertWithinOneUlp(short[] actual, short[] exact, int ranks, String what) {
        for (int i = 0; i < exact.length; i++) {
            if (isCancellationProbe(ranks, i)) {
                continue;
            }
            boolean nan = isNaN(actual[i]);
            if (nan != isNaN(exact[i]) || !nan && Math.abs(ordinal(actual[i]) - ordinal(exact[i])) > 1) {
                fail("%s: element %d is 0x%04x, the exact sum rounds to 0x%04x (more than 1 ulp apart)", what, i,
                        actual[i] & 0xFFFF, exact[i] & 0xFFFF);
            }
        }
    }

    static boolean isNaN(short bits) {
        return (bits & 0x7FFF) > 0x7F80;
    }

    /** bf16 patterns mapped to consecutive integers in value order (both zeros map to 0). */
    private static int ordinal(short bits) {
        int magnitude = bits & 0x7FFF;
        return (bits & 0x8000) != 0 ? -magnitude : magnitude;
    }

    /** A sanity check the comparisons rely on: the fixtures hold the special cases they claim to. */
    static void assertHasSpecials(short[] exact) {
        boolean nan = false;
        boolean inf = false;
        boolean subnormal = false;
        for (short bits : exact) {
            nan |= isNaN(bits);
            inf |= (bits & 0x7FFF) == 0x7F80;
            subnormal |= (bits & 0x7F80) == 0 && (bits & 0x7F) != 0;
        }
        assertThat(new boolean[] {nan, inf, subnormal}).as("NaN, inf and subnormal sums present").containsOnly(true);
    }
}
