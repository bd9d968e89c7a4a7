package dev.servebench.kernels.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which benchmark points a mode measures. Each step is one JMH run of one class over a parameter grid;
 * baselines (memcpy, ggml, the Java references) are steps of the same plan, so every ratio in the report
 * compares numbers measured in the same run on the same machine.
 */
record KernelPlan(KernelMode mode, Timing timing, List<Step> steps) {

    static final String BENCH = "dev.servebench.kernels.bench.";
    static final String GLM5_TP8 = "6144x256x256x8";

    KernelPlan {
        steps = List.copyOf(steps);
    }

    /** JMH iteration settings of a mode. */
    record Timing(int forks, int warmupIterations, int warmupSeconds, int measurementIterations,
            int measurementSeconds) {
    }

    record Step(String benchmarkClass, Map<String, String[]> params) {
        Step {
            params = new LinkedHashMap<>(params);
        }
    }

    static KernelPlan forMode(KernelMode mode, int threads) {
        String t = Integer.toString(threads);
        return switch (mode) {
            case SMOKE -> new KernelPlan(mode, new Timing(1, 1, 1, 3, 1), smoke(t));
            case FULL -> new KernelPlan(mode, new Timing(2, 2, 1, 5, 1), full(t));
        };
    }

    /** The CI-sized run: each target's points once, under three minutes on 2 cores. */
    private static List<Step> smoke(String threads) {
        List<Step> steps = new ArrayList<>();
        steps.add(step("MemcpyBenchmark", "bytes", of("268435456"), "threads", of(threads)));
        steps.add(allreduceBaseline("24576", "8388608"));
        steps.add(step("Nvfp4DequantBenchmark", "backend", of("native", "java"), "output", of("bf16"),
                "layout", of("linear"), "rows", of("16384"), "k", of("8192"), "threads", of(threads)));
        steps.add(step("MoeBenchmark", "backend", of("native", "ggml-f16", "ggml-q4_0", "ggml-q4_0-repacked"), "shape", of(GLM5_TP8),
                "tokens", of("64"), "threads", of(threads)));
        steps.add(step("MoeBenchmark", "backend", of("native", "java"), "shape", of(GLM5_TP8), "tokens", of("1"),
                "threads", of(threads)));
        steps.add(step("AllreduceBenchmark", "backend", of("native", "java"), "ranks", of("2"),
                "bytes", of("12288", "4194304"), "algorithm", of("auto"), "placement", of("out")));
        return steps;
    }

    /** The nightly / GPU-runner run: the whole matrix. */
    private static List<Step> full(String threads) {
        List<Step> steps = new ArrayList<>();
        steps.add(step("MemcpyBenchmark", "bytes", of("268435456"), "threads", of(threads)));
        steps.add(allreduceBaseline("24576", "196608", "786432", "1572864", "6291456", "8388608", "33554432",
                "134217728"));
        steps.add(step("Nvfp4DequantBenchmark", "backend", of("native", "java"), "output", of("bf16", "f32"),
                "layout", of("linear", "swizzled"), "rows", of("16384"), "k", of("8192"), "threads", of(threads)));
        steps.add(step("MoeBenchmark", "backend", of("native", "ggml-f16", "ggml-q4_0", "ggml-q4_0-repacked"), "shape", of(GLM5_TP8),
                "tokens", of("1", "16", "64", "256"), "threads", of(threads)));
        steps.add(step("MoeBenchmark", "backend", of("java"), "shape", of(GLM5_TP8), "tokens", of("1", "16"),
                "threads", of(threads)));
        // Decode sizes of GLM-5 (T·6144·2 bytes for T = 1, 8, 32, 64, 256) around vLLM's 256/512 KiB and
        // 8 MiB switch points, plus large messages for bandwidth.
        String[] sizes = of("12288", "98304", "393216", "786432", "3145728", "4194304", "16777216", "67108864");
        steps.add(step("AllreduceBenchmark", "backend", of("native"), "ranks", of("2"), "bytes", sizes,
                "algorithm", of("auto", "one_shot", "two_shot", "ring"), "placement", of("out")));
        steps.add(step("AllreduceBenchmark", "backend", of("native"), "ranks", of("2"), "bytes", sizes,
                "algorithm", of("auto"), "placement", of("in")));
        steps.add(step("AllreduceBenchmark", "backend", of("java"), "ranks", of("2"), "bytes", sizes,
                "algorithm", of("auto"), "placement", of("out")));
        // More ranks than cores here: a correctness-scale latency figure, meaningful on a runner with cores.
        steps.add(step("AllreduceBenchmark", "backend", of("native"), "ranks", of("4", "8"), "bytes", sizes,
                "algorithm", of("auto"), "placement", of("out")));
        return steps;
    }

    /**
     * The allreduce baseline at N = 2: two threads (one per rank) copying 2·S bytes, for each size S. Two
     * threads whatever the machine's cores: the dequant baseline's thread count would not be one per rank.
     */
    private static Step allreduceBaseline(String... twiceTheSizes) {
        return step("MemcpyBenchmark", "bytes", twiceTheSizes, "threads", of("2"));
    }

    private static Step step(String simpleName, Object... namesAndValues) {
        Map<String, String[]> params = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            params.put((String) namesAndValues[i], (String[]) namesAndValues[i + 1]);
        }
        return new Step(BENCH + simpleName, params);
    }

    private static String[] of(String... values) {
        return values;
    }
}
