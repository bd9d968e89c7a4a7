package dev.servebench.kernels.results;

/**
 * memcpy baseline: {@code threads} threads copying {@code bytes} in all.
 *
 * @param gbPerSecond          STREAM convention: bytes read + bytes written = 2·bytes, per second (1e9)
 * @param perThreadGbPerSecond bytes one thread copies per second (bytes/threads/t): the per-rank link analogue
 */
public record CopyFigure(long bytes, int threads, double medianMillis, double errorMillis, double gbPerSecond,
        double perThreadGbPerSecond) {
}
