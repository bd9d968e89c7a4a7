package dev.servebench.kernels.results;

import dev.servebench.kernels.nvfp4.ScaleLayout;
import dev.servebench.metric.KernelMetric;

/**
 * Each kernel figure as a function of one JMH result's parameters and a time per operation: the formulas of
 * docs/kernels.md, in one place for the figure tables ({@link KernelFigures}) and the figures kernel
 * expectations judge ({@link KernelMeasurementsJson}). Pure.
 */
public final class KernelFormulas {

    private KernelFormulas() {
    }

    /**
     * {@code metric} of {@code result} when one operation took {@code seconds}.
     *
     * @throws IllegalArgumentException the result is not of the metric's benchmark, or lacks a parameter
     */
    public static double value(KernelMetric metric, JmhResult result, double seconds) {
        if (!result.className().equals(metric.benchmark().className())) {
            throw new IllegalArgumentException(metric.id() + " is computed from " + metric.benchmark().className()
                    + ", not " + result.benchmark());
        }
        return switch (metric) {
            case MEMCPY_GBPS -> 2.0 * result.longParam("bytes") / seconds / 1e9;
            case MEMCPY_PER_THREAD_GBPS -> (double) result.longParam("bytes") / result.intParam("threads") / seconds / 1e9;
            case NVFP4_DEQUANT_GBPS -> dequantBytes(result) / seconds / 1e9;
            case MOE_GFLOPS -> MoeDims.parse(result.param("shape")).usefulFlops(result.longParam("tokens")) / seconds / 1e9;
            case ALLREDUCE_ALGBW_GBPS -> result.longParam("bytes") / perCollective(result, seconds) / 1e9;
            case ALLREDUCE_BUSBW_GBPS -> {
                int ranks = result.intParam("ranks");
                yield result.longParam("bytes") / perCollective(result, seconds) / 1e9 * 2 * (ranks - 1) / ranks;
            }
            case ALLREDUCE_US -> perCollective(result, seconds) * 1e6;
        };
    }

    /** An allreduce invocation runs {@link AllreduceRepeats} collectives back to back. */
    static double perCollective(JmhResult result, double seconds) {
        return seconds / AllreduceRepeats.forBytes(result.longParam("bytes"));
    }

    /** NVFP4 bytes read (packed K/2 + scales in the result's layout). */
    static long dequantBytesRead(JmhResult result) {
        long rows = result.longParam("rows");
        long k = result.longParam("k");
        ScaleLayout layout = switch (result.param("layout")) {
            case "linear" -> ScaleLayout.LINEAR;
            case "swizzled" -> ScaleLayout.SWIZZLED_128X4;
            default -> throw new IllegalArgumentException(result.benchmark() + " layout " + result.param("layout")
                    + "; expected linear or swizzled");
        };
        return rows * k / 2 + layout.bytes(rows, k);
    }

    /** Bytes read plus output bytes written by one dequantisation. */
    static long dequantBytes(JmhResult result) {
        int outputBytes = switch (result.param("output")) {
            case "bf16" -> 2;
            case "f32" -> 4;
            default -> throw new IllegalArgumentException(result.benchmark() + " output " + result.param("output")
                    + "; expected bf16 or f32");
        };
        return dequantBytesRead(result) + result.longParam("rows") * result.longParam("k") * outputBytes;
    }
}
