package dev.servebench.record;

import java.util.Arrays;

/**
 * Arrival time and token count of every choice-bearing stream event of one request, in arrival order.
 *
 * <p>Times are nanoseconds on the load point's clock (0 = benchmark start). A token count of 0 marks an
 * event whose choices carried no text (a role-only chat chunk, an empty delta); such events matter to
 * vLLM's TTFT trigger but not to SGLang's. Immutable: the arrays never leave this class.
 */
public final class ChunkTimeline implements EventSequence {

    private static final ChunkTimeline EMPTY = new ChunkTimeline(new long[0], new int[0], 0);

    private final long[] nanos;
    private final int[] tokens;
    private final int size;

    private ChunkTimeline(long[] nanos, int[] tokens, int size) {
        this.nanos = nanos;
        this.tokens = tokens;
        this.size = size;
    }

    public static ChunkTimeline empty() {
        return EMPTY;
    }

    /** Builds a timeline from parallel arrays (copied), validating order and counts. */
    public static ChunkTimeline of(long[] nanos, int[] tokens) {
        if (nanos.length != tokens.length) {
            throw new IllegalArgumentException("nanos (" + nanos.length + " entries) and tokens (" + tokens.length
                    + " entries) must have the same length");
        }
        Builder builder = new Builder(nanos.length);
        for (int i = 0; i < nanos.length; i++) {
            builder.add(nanos[i], tokens[i]);
        }
        return builder.build();
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public long nanosAt(int i) {
        return nanos[checkIndex(i)];
    }

    @Override
    public int tokensAt(int i) {
        return tokens[checkIndex(i)];
    }

    public long[] copyNanos() {
        return Arrays.copyOf(nanos, size);
    }

    public int[] copyTokens() {
        return Arrays.copyOf(tokens, size);
    }

    private int checkIndex(int i) {
        return java.util.Objects.checkIndex(i, size);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkTimeline other
                && Arrays.equals(nanos, 0, size, other.nanos, 0, other.size)
                && Arrays.equals(tokens, 0, size, other.tokens, 0, other.size);
    }

    @Override
    public int hashCode() {
        int h = 1;
        for (int i = 0; i < size; i++) {
            h = 31 * h + Long.hashCode(nanos[i]);
            h = 31 * h + tokens[i];
        }
        return h;
    }

    @Override
    public String toString() {
        return "ChunkTimeline[" + size + " events, " + totalTokens() + " tokens]";
    }

    /** Growable, single-threaded builder used by the stream reader; {@link #build()} hands the arrays over. */
    public static final class Builder {
        private long[] nanos;
        private int[] tokens;
        private int size;

        public Builder(int expectedEvents) {
            int capacity = Math.max(4, expectedEvents);
            nanos = new long[capacity];
            tokens = new int[capacity];
        }

        public Builder add(long arrivalNanos, int tokenCount) {
            if (tokenCount < 0) {
                throw new IllegalArgumentException("tokenCount (" + tokenCount + ") must be >= 0");
            }
            if (size > 0 && arrivalNanos < nanos[size - 1]) {
                throw new IllegalArgumentException("arrivalNanos (" + arrivalNanos + ") is before the previous event ("
                        + nanos[size - 1] + ")");
            }
            if (size == nanos.length) {
                int grown = size * 2;
                nanos = Arrays.copyOf(nanos, grown);
                tokens = Arrays.copyOf(tokens, grown);
            }
            nanos[size] = arrivalNanos;
            tokens[size] = tokenCount;
            size++;
            return this;
        }

        public int size() {
            return size;
        }

        public ChunkTimeline build() {
            if (size == 0) {
                return EMPTY;
            }
            ChunkTimeline timeline = new ChunkTimeline(nanos, tokens, size);
            nanos = null;
            tokens = null;
            return timeline;
        }
    }
}
