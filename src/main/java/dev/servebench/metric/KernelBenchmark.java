package dev.servebench.metric;

import static dev.servebench.metric.KernelParameter.choice;
import static dev.servebench.metric.KernelParameter.count;
import static dev.servebench.metric.KernelParameter.shape;
import static dev.servebench.metric.KernelParameter.size;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The JMH benchmark classes of the kernel suite (docs/kernels.md) and the parameters their points have:
 * what a spec's kernel point may name. The benchmarks themselves live in {@code src/jmh}; a parameter
 * added there is added here too, or no spec can name it.
 */
public enum KernelBenchmark {
    MEMCPY("MemcpyBenchmark", size("bytes"), count("threads")),
    NVFP4_DEQUANT("Nvfp4DequantBenchmark", choice("backend", "native", "java"), choice("output", "bf16", "f32"),
            choice("layout", "linear", "swizzled"), count("rows"), count("k"), count("threads")),
    MOE("MoeBenchmark", choice("backend", "native", "java", "ggml-f16", "ggml-q4_0", "ggml-q4_0-repacked"),
            shape("shape"), count("tokens"), count("threads")),
    ALLREDUCE("AllreduceBenchmark", choice("backend", "native", "java"), count("ranks"), size("bytes"),
            choice("algorithm", "auto", "one_shot", "two_shot", "ring"), choice("placement", "in", "out"));

    private final String className;
    private final List<KernelParameter> parameters;

    KernelBenchmark(String className, KernelParameter... parameters) {
        this.className = className;
        this.parameters = List.of(parameters);
    }

    /** The JMH class's simple name, as results name it ({@code MemcpyBenchmark}). */
    public String className() {
        return className;
    }

    public List<KernelParameter> parameters() {
        return parameters;
    }

    public Optional<KernelParameter> parameter(String name) {
        return parameters.stream().filter(p -> p.name().equals(name)).findFirst();
    }

    public List<String> parameterNames() {
        return parameters.stream().map(KernelParameter::name).toList();
    }

    public static Optional<KernelBenchmark> byClassName(String className) {
        return Arrays.stream(values()).filter(b -> b.className.equals(className)).findFirst();
    }
}
