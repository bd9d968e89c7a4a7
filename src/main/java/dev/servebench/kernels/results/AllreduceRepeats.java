package dev.servebench.kernels.results;

/**
 * Collectives per benchmark invocation: enough that small messages are timed over many back-to-back
 * collectives (amortising the thread-team start) while large ones stay around a few MiB per invocation.
 * The benchmark and the figures both use this, so a score divides back to one collective.
 */
public final class AllreduceRepeats {

    private static final long BYTES_PER_INVOCATION = 8L << 20;
    private static final int MAX_REPEATS = 256;

    private AllreduceRepeats() {
    }

    public static int forBytes(long bytes) {
        if (bytes <= 0) {
            throw new IllegalArgumentException("message size " + bytes + " bytes; expected > 0");
        }
        return (int) Math.max(1, Math.min(MAX_REPEATS, BYTES_PER_INVOCATION / bytes));
    }
}
