package dev.servebench.spec;

/**
 * The token ids random prompts are drawn from, {@code [base, base + span)}, when the spec (or
 * {@code --random-token-id-base} / {@code --random-vocab-span}) fixes them. Without it the range is learnt
 * from the server where it states its vocabulary, else the defaults are assumed and the summary says so.
 *
 * @param base first id, above the vocabulary's special tokens
 * @param span number of ids
 */
public record PromptTokenIds(int base, int span) {

    /** {@code servebench run}'s defaults (and the workload package's random dataset's). */
    public static final int DEFAULT_BASE = 1000;
    public static final int DEFAULT_SPAN = 30000;

    public PromptTokenIds {
        if (base < 0 || span < 1 || (long) base + span > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("token ids [" + base + ", " + base + " + " + span
                    + ") must start at >= 0, hold >= 1 id and fit in an int");
        }
    }
}
