package dev.servebench.kernels.results;

/**
 * One allreduce point, nccl-tests definitions: S = bytes per rank, algbw = S/t, busbw = algbw·2(N−1)/N.
 *
 * @param copyGbPerSecond  memcpy with one thread per rank each copying S bytes, per-thread rate S/t
 * @param busbwToCopy      busbw / copyGbPerSecond
 */
public record AllreduceFigure(String backend, int ranks, long bytes, String algorithm, String placement,
        double microsPerCollective, double errorMicros, double algbwGbPerSecond, double busbwGbPerSecond,
        Double copyGbPerSecond, Double busbwToCopy) {
}
