package dev.servebench.kernels.moe;

import dev.servebench.kernels.KernelLibrary;
import dev.servebench.kernels.Segments;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Objects;

/**
 * Bindings of {@code sb_moe_route}, {@code sb_moe_workspace_bytes} and {@code sb_moe_w4a16}. Every
 * argument is checked here before the native call, so bad input fails with a Java exception naming it.
 */
public final class NativeMoe {

    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG;
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT;
    private static final ValueLayout ADDRESS = ValueLayout.ADDRESS;
    /** The C library's limit on tokens per call. */
    public static final int MAX_TOKENS = 1 << 24;

    private final KernelLibrary library;

    public NativeMoe(KernelLibrary library) {
        this.library = Objects.requireNonNull(library, "library");
    }

    private MethodHandle routeHandle() {
        return library.handle("sb_moe_route", FunctionDescriptor.of(I32, ADDRESS, ADDRESS, I64, I32, I32, I32, I32,
                I32, F32, ADDRESS, ADDRESS));
    }

    private MethodHandle workspaceHandle() {
        return library.handle("sb_moe_workspace_bytes", FunctionDescriptor.of(I64, I64, I64, I64, I32, I32));
    }

    private MethodHandle forwardHandle() {
        return library.handle("sb_moe_w4a16", FunctionDescriptor.of(I32, ADDRESS, I64, I64, I64, I32, I32, ADDRESS,
                ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, I64, I32));
    }

    /** Routes {@code tokens} tokens natively; the arguments are those of {@link RoutingReference#route}. */
    public Routing route(float[] logits, float[] bias, int tokens, RoutingConfig config) {
        RoutingReference.requireInputs(logits, bias, tokens, config);
        try (Arena arena = Arena.ofConfined()) {
            long pairs = (long) tokens * config.topK();
            MemorySegment ids = arena.allocate(I32, pairs);
            MemorySegment weights = arena.allocate(F32, pairs);
            call(arena.allocateFrom(F32, logits), bias == null ? MemorySegment.NULL : arena.allocateFrom(F32, bias),
                    tokens, config, ids, weights);
            return new Routing(tokens, config.topK(), ids.toArray(I32), weights.toArray(F32));
        }
    }

    /**
     * Segment form for benchmarks: logits fp32 [tokens, experts], bias fp32 [experts] or null, outputs
     * ids int32 and weights fp32 [tokens, topK].
     */
    public void route(MemorySegment logits, MemorySegment bias, int tokens, RoutingConfig config, MemorySegment ids,
            MemorySegment weights) {
        Objects.requireNonNull(config, "config");
        if (tokens < 1) {
            throw new IllegalArgumentException("tokens = " + tokens + "; expected at least 1");
        }
        long values = (long) tokens * config.experts();
        Segments.requireBytes(logits, "logits", 4 * values);
        for (long i = 0; i < values; i++) {
            if (Float.isNaN(logits.getAtIndex(F32, i))) {
                throw new IllegalArgumentException("logits[" + i + "] is NaN; NaN has no rank");
            }
        }
        if (bias != null) {
            Segments.requireBytes(bias, "bias", 4L * config.experts());
            for (long e = 0; e < config.experts(); e++) {
                if (!Float.isFinite(bias.getAtIndex(F32, e))) {
                    throw new IllegalArgumentException("bias[" + e + "] = " + bias.getAtIndex(F32, e)
                            + "; expected a finite value");
                }
            }
        }
        long pairs = (long) tokens * config.topK();
        Segments.requireBytes(ids, "ids", 4 * pairs);
        Segments.requireBytes(weights, "weights", 4 * pairs);
        call(logits, bias == null ? MemorySegment.NULL : bias, tokens, config, ids, weights);
    }

    private void call(MemorySegment logits, MemorySegment bias, int tokens, RoutingConfig config, MemorySegment ids,
            MemorySegment weights) {
        try {
            int status = (int) routeHandle().invokeExact(logits, bias, (long) tokens, config.experts(), config.topK(),
                    config.nGroup(), config.topkGroup(), config.renormalize() ? 1 : 0, config.routedScalingFactor(),
                    ids, weights);
            KernelLibrary.check(status, "sb_moe_route");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /** Workspace bytes {@link #forward} needs for {@code tokens} tokens of {@code shape}. */
    public long workspaceBytes(MoeShape shape, int tokens) {
        Objects.requireNonNull(shape, "shape");
        requireTokens(tokens);
        try {
            long bytes = (long) workspaceHandle().invokeExact((long) tokens, (long) shape.hidden(), (long) shape.inter(),
                    shape.experts(), shape.topK());
            if (bytes < 0) {
                throw new IllegalArgumentException("sb_moe_workspace_bytes rejected " + shape + " with " + tokens + " tokens");
            }
            return bytes;
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    /**
     * Runs the routed experts: {@code out} fp32 [T, H] (native, at least T*H*4 bytes), {@code workspace}
     * at least {@link #workspaceBytes} bytes, {@code threads} >= 1 (results do not depend on it).
     */
    public void forward(MoeShape shape, MoeWeights weights, MoeInputs inputs, MemorySegment out,
            MemorySegment workspace, int threads) {
        MoeReference.requireMatching(shape, weights, inputs);
        int tokens = inputs.tokens();
        requireTokens(tokens);
        Segments.requireBytes(out, "out", 4L * tokens * shape.hidden());
        Segments.requireBytes(workspace, "workspace", workspaceBytes(shape, tokens));
        Segments.requireThreads(threads);
        inputs.requireIdsInRange();
        try {
            int status = (int) forwardHandle().invokeExact(inputs.x(), (long) tokens, (long) shape.hidden(),
                    (long) shape.inter(), shape.experts(), shape.topK(), inputs.topkIds(), inputs.topkWeights(),
                    weights.w13Packed(), weights.w13Scales(), weights.w13Global(), weights.w2Packed(),
                    weights.w2Scales(), weights.w2Global(), out, workspace, workspace.byteSize(), threads);
            KernelLibrary.check(status, "sb_moe_w4a16");
        } catch (Throwable t) {
            throw KernelLibrary.rethrow(t);
        }
    }

    private static void requireTokens(int tokens) {
        if (tokens < 1 || tokens > MAX_TOKENS) {
            throw new IllegalArgumentException("tokens = " + tokens + "; expected 1.." + MAX_TOKENS);
        }
    }
}
