package dev.servebench.kernels.allreduce;

/**
 * The allreduce algorithms (docs/kernels-allreduce.md, Algorithms), with the codes of
 * {@code enum sb_allreduce_algorithm}. Exact summation orders: docs/kernels-allreduce.md.
 */
public enum AllreduceAlgorithm {
    /** vLLM's custom-allreduce dispatch ({@link AllreduceDispatch#choose}) with the default 8 MiB limit. */
    AUTO(0),
    /** Every rank sums all inputs in rank order 0..N-1. */
    ONE_SHOT(1),
    /** Reduce-scatter (slice owner r sums in rotated order r, r+1, ...) then all-gather. */
    TWO_SHOT(2),
    /** The NCCL ring: N-1 reduce-scatter steps then N-1 all-gather steps over N chunks. */
    RING(3);

    private final int code;

    AllreduceAlgorithm(int code) {
        this.code = code;
    }

    /** The {@code sb_allreduce_algorithm} value passed to the native library. */
    public int code() {
        return code;
    }

    /** A benchmark parameter such as {@code auto}, {@code one_shot} or {@code two-shot}: the name, any case. */
    public static AllreduceAlgorithm parse(String name) {
        if (name == null) {
            throw new NullPointerException("allreduce algorithm name is null; expected auto, one_shot, two_shot or ring");
        }
        for (AllreduceAlgorithm algorithm : values()) {
            if (algorithm.name().equalsIgnoreCase(name.strip().replace('-', '_'))) {
                return algorithm;
            }
        }
        throw new IllegalArgumentException("allreduce algorithm '" + name + "' is unknown; expected auto, one_shot, "
                + "two_shot or ring");
    }

    public static AllreduceAlgorithm fromCode(int code) {
        for (AllreduceAlgorithm algorithm : values()) {
            if (algorithm.code == code) {
                return algorithm;
            }
        }
        throw new IllegalArgumentException("allreduce algorithm code " + code + " is unknown; expected 0..3");
    }
}
