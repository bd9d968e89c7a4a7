package dev.servebench.kernels.allreduce;

/**
 * Which algorithm vLLM's (and SGLang's) custom allreduce runs for a message, mirrored bit for bit by
 * {@code sb_allreduce_choose}. Shared memory counts as "fully connected", so the PCIe-only rule that
 * disables custom allreduce above two ranks (docs/kernels-allreduce.md, Dispatch) does not apply here.
 */
public final class AllreduceDispatch {

    /** vLLM's default {@code max_size} for custom allreduce: 8 MiB. */
    public static final long DEFAULT_CUSTOM_MAX_BYTES = 8L << 20;
    public static final int MIN_RANKS = 2;
    public static final int MAX_RANKS = 8;

    private static final long ONE_SHOT_UP_TO_4_RANKS = 512L << 10;
    private static final long ONE_SHOT_UP_TO_8_RANKS = 256L << 10;

    private AllreduceDispatch() {
    }

    /**
     * vLLM's order: {@code should_custom_ar} sends sizes that are not a multiple of 16 bytes or not below
     * {@code customMaxBytes} to NCCL (modelled by the ring); {@code custom_all_reduce.cuh} then picks one
     * stage for two ranks or small messages, else two stages. Never returns {@link AllreduceAlgorithm#AUTO}.
     */
    public static AllreduceAlgorithm choose(int ranks, long bytes, long customMaxBytes) {
        requireRanks(ranks);
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes = " + bytes + "; expected at least 0");
        }
        if (customMaxBytes < 0) {
            throw new IllegalArgumentException("customMaxBytes = " + customMaxBytes + "; expected at least 0");
        }
        if (bytes % 16 != 0 || bytes >= customMaxBytes) {
            return AllreduceAlgorithm.RING;
        }
        if (ranks == 2
                || ranks <= 4 && bytes < ONE_SHOT_UP_TO_4_RANKS
                || ranks <= 8 && bytes < ONE_SHOT_UP_TO_8_RANKS) {
            return AllreduceAlgorithm.ONE_SHOT;
        }
        return AllreduceAlgorithm.TWO_SHOT;
    }

    /** {@code algorithm} itself, or for AUTO the choice with the default 8 MiB custom-allreduce limit. */
    public static AllreduceAlgorithm resolve(AllreduceAlgorithm algorithm, int ranks, long bytes) {
        if (algorithm == null) {
            throw new NullPointerException("algorithm is null; expected one of AUTO, ONE_SHOT, TWO_SHOT, RING");
        }
        return algorithm == AllreduceAlgorithm.AUTO ? choose(ranks, bytes, DEFAULT_CUSTOM_MAX_BYTES) : algorithm;
    }

    public static int requireRanks(int ranks) {
        if (ranks < MIN_RANKS || ranks > MAX_RANKS) {
            throw new IllegalArgumentException("ranks = " + ranks + "; expected " + MIN_RANKS + ".." + MAX_RANKS);
        }
        return ranks;
    }
}
