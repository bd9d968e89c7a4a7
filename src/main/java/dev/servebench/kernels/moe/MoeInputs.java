package dev.servebench.kernels.moe;

import dev.servebench.kernels.Segments;
import dev.servebench.kernels.nvfp4.Bf16;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * One MoE call's activations and routing in native memory: {@code x} bf16 [T, H], {@code topkIds} int32
 * [T, k], {@code topkWeights} fp32 [T, k]. The segments are what the kernels read; {@link #routing()}
 * reads them back, so a caller that edits a segment is seen by the Java checks too.
 */
public final class MoeInputs {

    private final MoeShape shape;
    private final int tokens;
    private final MemorySegment x;
    private final MemorySegment topkIds;
    private final MemorySegment topkWeights;

    /** Wraps native segments of at least the sizes {@code shape} and {@code tokens} need. */
    public MoeInputs(MoeShape shape, int tokens, MemorySegment x, MemorySegment topkIds, MemorySegment topkWeights) {
        this.shape = Objects.requireNonNull(shape, "shape");
        if (tokens < 1) {
            throw new IllegalArgumentException("tokens = " + tokens + "; expected at least 1");
        }
        this.tokens = tokens;
        long pairs = (long) tokens * shape.topK();
        this.x = Segments.requireBytes(x, "x", 2L * tokens * shape.hidden());
        this.topkIds = Segments.requireBytes(topkIds, "topkIds", 4 * pairs);
        this.topkWeights = Segments.requireBytes(topkWeights, "topkWeights", 4 * pairs);
    }

    /** Copies bf16 activations (raw bits, [tokens, H]) and a routing into {@code arena}. */
    public static MoeInputs of(MoeShape shape, short[] x, Routing routing, Arena arena) {
        Objects.requireNonNull(shape, "shape");
        Objects.requireNonNull(x, "x");
        Objects.requireNonNull(routing, "routing");
        if (routing.topK() != shape.topK()) {
            throw new IllegalArgumentException("routing has topK " + routing.topK() + "; the shape has " + shape.topK());
        }
        if (x.length != (long) routing.tokens() * shape.hidden()) {
            throw new IllegalArgumentException("x holds " + x.length + " values; expected tokens*hidden = "
                    + (long) routing.tokens() * shape.hidden());
        }
        return new MoeInputs(shape, routing.tokens(), arena.allocateFrom(ValueLayout.JAVA_SHORT, x),
                arena.allocateFrom(ValueLayout.JAVA_INT, routing.ids()),
                arena.allocateFrom(ValueLayout.JAVA_FLOAT, routing.weights()));
    }

    /**
     * Seeded random inputs: x ~ N(0,1) rounded to bf16, routing by the reference router with GLM-5's
     * settings for this shape ({@link RoutingConfig#glm5Like}) on {@link RouterInputs#random} logits.
     */
    public static MoeInputs random(MoeShape shape, int tokens, long seed, Arena arena, RoutingSkew skew) {
        Objects.requireNonNull(shape, "shape");
        RouterInputs router = RouterInputs.random(shape, tokens, seed ^ 0x5DEECE66DL, skew);
        Routing routing = RoutingReference.route(router.logits(), router.bias(), tokens,
                RoutingConfig.glm5Like(shape.experts(), shape.topK()));
        SplittableRandom random = new SplittableRandom(seed);
        short[] x = new short[Math.multiplyExact(tokens, shape.hidden())];
        for (int i = 0; i < x.length; i++) {
            x[i] = Bf16.fromFloat((float) random.nextGaussian());
        }
        return of(shape, x, routing, arena);
    }

    public MoeShape shape() {
        return shape;
    }

    public int tokens() {
        return tokens;
    }

    public MemorySegment x() {
        return x;
    }

    public MemorySegment topkIds() {
        return topkIds;
    }

    public MemorySegment topkWeights() {
        return topkWeights;
    }

    /** The routing as the segments hold it now. */
    public Routing routing() {
        long pairs = (long) tokens * shape.topK();
        return new Routing(tokens, shape.topK(), topkIds.asSlice(0, 4 * pairs).toArray(ValueLayout.JAVA_INT),
                topkWeights.asSlice(0, 4 * pairs).toArray(ValueLayout.JAVA_FLOAT));
    }

    /** Activations as fp32 (exact), row-major [T][H]. */
    public float[] activations() {
        short[] bits = x.asSlice(0, 2L * tokens * shape.hidden()).toArray(ValueLayout.JAVA_SHORT);
        float[] values = new float[bits.length];
        for (int i = 0; i < bits.length; i++) {
            values[i] = Bf16.toFloat(bits[i]);
        }
        return values;
    }

    /** Throws unless every expert id lies in [0, experts): an id outside would read past the weights. */
    void requireIdsInRange() {
        long pairs = (long) tokens * shape.topK();
        for (long p = 0; p < pairs; p++) {
            int id = topkIds.getAtIndex(ValueLayout.JAVA_INT, p);
            if (id < 0 || id >= shape.experts()) {
                throw new IllegalArgumentException("topkIds[" + p + "] = " + id + " (token " + p / shape.topK() + ", slot "
                        + p % shape.topK() + ") is not an expert; expected 0.." + (shape.experts() - 1));
            }
        }
    }
}
