package dev.servebench.kernels.results;

/**
 * MoE expert computation (both grouped GEMMs, SwiGLU and the weighted combine) at one point.
 *
 * @param gflops                      useful FLOP/s, 6·H·I·T·k / t, 1e9
 * @param expectedWeightGbPerSecond   NVFP4 bytes of the expected active experts / t (an expectation)
 * @param vsGgmlF16                   for native: ggml F16 time / native time (> 1 = native faster)
 * @param vsGgmlQ4_0                  for native: ggml Q4_0 (plain mul_mat_id) time / native time
 * @param vsGgmlQ4_0Repacked          for native: ggml Q4_0 repacked (the engine's x86 path) time / native time
 * @param speedupOverJava             for native: Java reference time / native time
 */
public record MoeFigure(String backend, String shape, long tokens, int threads, double medianMillis,
        double errorMillis, double gflops, double expectedWeightGbPerSecond, Double vsGgmlF16, Double vsGgmlQ4_0,
        Double vsGgmlQ4_0Repacked, Double speedupOverJava) {
}
