package dev.servebench.kernels.allreduce;

/**
 * nccl-tests' figures for one allreduce (docs/kernels-allreduce.md, Metrics): {@code algbw = S / t} with S
 * the bytes of one rank's buffer, and {@code busbw = algbw * 2(N-1)/N}, comparable with the per-rank link (or
 * memory) rate. GB = 1e9 bytes.
 */
public record AllreduceBandwidth(int ranks, long bytesPerRank, double secondsPerCollective) {

    public AllreduceBandwidth {
        AllreduceDispatch.requireRanks(ranks);
        if (bytesPerRank < 0) {
            throw new IllegalArgumentException("bytesPerRank = " + bytesPerRank + "; expected at least 0");
        }
        if (!(secondsPerCollective > 0) || Double.isInfinite(secondsPerCollective)) {
            throw new IllegalArgumentException("secondsPerCollective = " + secondsPerCollective
                    + "; expected a positive finite time");
        }
    }

    public double algorithmGigabytesPerSecond() {
        return bytesPerRank / secondsPerCollective / 1e9;
    }

    public double busGigabytesPerSecond() {
        return algorithmGigabytesPerSecond() * 2.0 * (ranks - 1) / ranks;
    }
}
