package dev.servebench.kernels.bench;

import dev.servebench.kernels.ggml.ExpertWeights;
import dev.servebench.kernels.ggml.GgmlExperts;
import dev.servebench.kernels.ggml.GgmlLibrary;
import dev.servebench.kernels.ggml.GgmlMoe;
import dev.servebench.kernels.ggml.GgmlWeightType;
import dev.servebench.kernels.moe.MoeInputs;
import dev.servebench.kernels.moe.MoeReference;
import dev.servebench.kernels.moe.MoeShape;
import dev.servebench.kernels.moe.MoeWeights;
import dev.servebench.kernels.moe.NativeMoe;
import dev.servebench.kernels.moe.RoutingSkew;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The routed experts of one MoE layer for {@code tokens} tokens (both grouped GEMMs, SwiGLU, weighted
 * combine; routing precomputed): our W4A16 NVFP4 kernel, its Java reference, and llama.cpp's own MoE FFN
 * ({@code ggml_mul_mat_id} ×3) with F16 and Q4_0 weights made from the very same dequantised NVFP4 weights,
 * on the same inputs and the same number of threads. {@code ggml-q4_0-repacked} is Q4_0 as the engine
 * really runs it on x86 (the CPU backend repacks Q4_0 into 8-row interleaved blocks at load time).
 * Routing is an input (precomputed, uniform), as in the engines' expert kernels.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class MoeBenchmark {

    @Param({"native", "java", "ggml-f16", "ggml-q4_0", "ggml-q4_0-repacked"})
    public String backend;

    /** HxIxExk; 6144x256x256x8 is the GLM-5 TP=8 shard. */
    @Param({"6144x256x256x8"})
    public String shape;

    @Param({"1", "16", "64", "256"})
    public int tokens;

    @Param({"2"})
    public int threads;

    private Arena arena;
    private MoeShape moeShape;
    private MoeWeights weights;
    private MoeInputs inputs;
    private NativeMoe kernels;
    private MemorySegment out;
    private MemorySegment workspace;
    private GgmlExperts ggmlExperts;
    private GgmlMoe ggml;

    @Setup(Level.Trial)
    public void setUp() {
        moeShape = parseShape(shape);
        arena = Arena.ofShared();
        weights = MoeWeights.random(moeShape, 5, arena);
        inputs = MoeInputs.random(moeShape, tokens, 6, arena, RoutingSkew.UNIFORM);
        switch (backend) {
            case "native" -> {
                kernels = new NativeMoe(BenchLibrary.loadInFork());
                out = arena.allocate((long) tokens * moeShape.hidden() * Float.BYTES, 64);
                workspace = arena.allocate(Math.max(64, kernels.workspaceBytes(moeShape, tokens)), 64);
            }
            case "java" -> { }
            case "ggml-f16" -> ggml(GgmlWeightType.F16);
            case "ggml-q4_0" -> ggml(GgmlWeightType.Q4_0);
            case "ggml-q4_0-repacked" -> ggml(GgmlWeightType.Q4_0_REPACKED);
            default -> throw new IllegalArgumentException("backend " + backend
                    + "; expected native, java, ggml-f16, ggml-q4_0 or ggml-q4_0-repacked");
        }
    }

    private void ggml(GgmlWeightType type) {
        ggmlExperts = new GgmlExperts(GgmlLibrary.load(), moeShape.hidden(), moeShape.inter(), moeShape.experts(),
                type, new DequantisedExperts(weights));
        ggml = new GgmlMoe(ggmlExperts, moeShape.topK(), tokens, threads);
        ggml.setInputs(inputs.activations(), inputs.routing().ids(), inputs.routing().weights());
    }

    private static MoeShape parseShape(String text) {
        String[] parts = text.split("x");
        if (parts.length != 4) {
            throw new IllegalArgumentException("shape " + text + "; expected HxIxExk");
        }
        return new MoeShape(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Integer.parseInt(parts[2]),
                Integer.parseInt(parts[3]));
    }

    /** Our NVFP4 experts, dequantised exactly to fp32, for ggml to convert into its own weight type. */
    private record DequantisedExperts(MoeWeights weights) implements ExpertWeights {
        @Override
        public void up(int expert, float[] out) {
            copy(weights.up(expert), out);
        }

        @Override
        public void gate(int expert, float[] out) {
            copy(weights.gate(expert), out);
        }

        @Override
        public void down(int expert, float[] out) {
            copy(weights.down(expert), out);
        }

        private static void copy(float[] values, float[] out) {
            System.arraycopy(values, 0, out, 0, values.length);
        }
    }

    @Benchmark
    public Object forward() {
        if (kernels != null) {
            kernels.forward(moeShape, weights, inputs, out, workspace, threads);
            return out;
        }
        if (ggml != null) {
            ggml.compute();
            return ggml;
        }
        return MoeReference.forward(moeShape, weights, inputs);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (ggml != null) {
            ggml.close();
            ggmlExperts.close();
        }
        arena.close();
    }
}
