package dev.servebench.kernels.allreduce;

/**
 * How two-shot slices and ring chunks split a message of {@code count} bf16 elements over N ranks:
 * whole 16-byte units (8 elements) shared evenly, the last part taking the remainder, as vLLM's
 * {@code part = size / ngpus} over packed 16-byte vectors. Parts may be empty for tiny messages.
 */
public final class MessageParts {

    /** Elements per 16-byte unit: messages are whole units (vLLM requires size % 16 == 0). */
    public static final int ELEMENTS_PER_UNIT = 8;

    private MessageParts() {
    }

    public static long begin(long count, int ranks, int part) {
        return part * (count / ELEMENTS_PER_UNIT / ranks) * ELEMENTS_PER_UNIT;
    }

    public static long end(long count, int ranks, int part) {
        return part == ranks - 1 ? count : begin(count, ranks, part + 1);
    }
}
