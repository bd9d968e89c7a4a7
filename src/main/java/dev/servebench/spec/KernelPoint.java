package dev.servebench.spec;

import dev.servebench.metric.KernelBenchmark;
import dev.servebench.metric.KernelParameter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A kernel benchmark's parameter point as a kernel expectation names it: some of the benchmark's JMH
 * parameters with values in JMH's spelling ({@code backend=native,bytes=4194304}). Parameters it leaves
 * out may take any value; judging needs the point to match exactly one measured result.
 *
 * @param parameters canonical values by parameter name, in the benchmark's parameter order
 */
public record KernelPoint(KernelBenchmark benchmark, Map<String, String> parameters) {

    public KernelPoint {
        Objects.requireNonNull(benchmark, "benchmark");
        Map<String, String> ordered = new LinkedHashMap<>();
        for (KernelParameter parameter : benchmark.parameters()) {
            String value = parameters.get(parameter.name());
            if (value != null) {
                if (!parameter.canonical(value).map(value::equals).orElse(false)) {
                    throw new IllegalArgumentException(benchmark.className() + " " + parameter.name() + "=" + value
                            + ": expected " + parameter.expected() + " in JMH's spelling");
                }
                ordered.put(parameter.name(), value);
            }
        }
        if (ordered.size() != parameters.size()) {
            throw new IllegalArgumentException(benchmark.className() + " has no parameters "
                    + parameters.keySet().stream().filter(name -> !ordered.containsKey(name)).toList() + "; it has "
                    + benchmark.parameterNames());
        }
        parameters = java.util.Collections.unmodifiableMap(ordered);
    }

    /** Whether a result measured at {@code measured} (all its JMH parameters) is at this point. */
    public boolean matches(Map<String, String> measured) {
        return parameters.entrySet().stream().allMatch(e -> e.getValue().equals(measured.get(e.getKey())));
    }

    /**
     * The reference point of a relative expectation: this point's parameters that {@code reference} also
     * has, replaced by those {@code written} after the reference metric. "moe_gflops@…,tokens=64 ≥ 1 ×
     * moe_gflops@backend=ggml-f16" compares with ggml at the same shape and tokens.
     */
    public KernelPoint carriedTo(KernelBenchmark reference, KernelPoint written) {
        if (written.benchmark() != reference) {
            throw new IllegalArgumentException("the written reference point is of " + written.benchmark().className()
                    + ", not " + reference.className());
        }
        Map<String, String> carried = new LinkedHashMap<>();
        parameters.forEach((name, value) -> {
            if (reference.parameter(name).isPresent()) {
                carried.put(name, value);
            }
        });
        carried.putAll(written.parameters());
        return new KernelPoint(reference, carried);
    }

    /** {@code name=value,…} with sizes in KiB/MiB/GiB: how specs and test names write it. */
    @Override
    public String toString() {
        return parameters.entrySet().stream()
                .map(e -> e.getKey() + "=" + benchmark.parameter(e.getKey()).orElseThrow().display(e.getValue()))
                .collect(Collectors.joining(","));
    }
}
