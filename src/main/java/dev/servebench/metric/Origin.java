package dev.servebench.metric;

/** Whose definition a metric reproduces; the same name can mean different numbers in SGLang and vLLM. */
public enum Origin {
    /** SGLang {@code bench_serving} ({@code calculate_metrics} of {@code sglang.benchmark.serving}). */
    SGLANG,
    /** vLLM {@code bench serve} ({@code calculate_metrics} of {@code vllm.benchmarks.serve}). */
    VLLM,
    /** servebench's own diagnostics; no reference tool reports them. */
    SERVEBENCH
}
