package dev.servebench.kernels.results;

/**
 * NVFP4 dequantisation at one point.
 *
 * @param tensorBytes      NVFP4 bytes read: packed K/2 + scales per row (the "weight tensor" size)
 * @param gbPerSecond      (bytes read + bytes written) / t, 1e9
 * @param copyGbPerSecond  the largest memcpy of the same run with the same threads, STREAM convention
 * @param ratioToCopy      gbPerSecond / copyGbPerSecond
 * @param speedupOverJava  for the native backend: Java reference time / native time at the same point
 */
public record DequantFigure(String backend, String output, String layout, long rows, long k, int threads,
        long tensorBytes, double medianMillis, double errorMillis, double gbPerSecond, double gElementsPerSecond,
        Double copyGbPerSecond, Double ratioToCopy, Double speedupOverJava) {
}
