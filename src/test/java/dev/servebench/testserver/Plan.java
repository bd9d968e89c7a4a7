package dev.servebench.testserver;

import java.time.Duration;
import java.util.Objects;

/**
 * How one request is answered: timing, chunking, usage, decorations and fault. Token chunk {@code i} (0-based)
 * is due at {@code start + ttftNanos + i * gapNanos}; with {@code tokensPerChunk = 1} the gap is the
 * inter-token gap. A plan with zero TTFT and gap, no split writes and only byte-level faults is "full speed":
 * its whole response is rendered once and served from cache with a single write.
 *
 * @param ttftNanos       delay from the start of handling to the first token chunk
 * @param gapNanos        delay between consecutive token chunks
 * @param tokensPerChunk  tokens carried per chunk (the last chunk may carry fewer)
 * @param defaultMaxTokens completion length when the request names none
 * @param usage           whether the usage chunk is sent
 * @param fault           what goes wrong
 * @param crlf            end SSE lines with CRLF instead of LF
 * @param pingEvery       a {@code : ping} comment precedes every chunk whose index is a multiple of this (0 = off)
 * @param emptyEvery      an empty-content chunk precedes every chunk whose index is a multiple of this (0 = off)
 * @param splitWrites     each SSE event goes out as two writes, split mid-event
 * @param splitDelayNanos pause between the two halves, so the client surely reads a partial line
 */
public record Plan(long ttftNanos, long gapNanos, int tokensPerChunk, int defaultMaxTokens, UsageMode usage,
                   Fault fault, boolean crlf, int pingEvery, int emptyEvery, boolean splitWrites,
                   long splitDelayNanos) {

    /** Whether the usage-only chunk is sent on streams (non-streaming answers always carry usage). */
    public enum UsageMode {
        /** As the request asks via {@code stream_options.include_usage}. */
        REQUEST,
        ALWAYS,
        NEVER
    }

    public Plan {
        requireNonNegative("ttftNanos", ttftNanos);
        requireNonNegative("gapNanos", gapNanos);
        if (tokensPerChunk < 1) {
            throw new IllegalArgumentException("tokensPerChunk (" + tokensPerChunk + ") must be >= 1");
        }
        if (defaultMaxTokens < 1) {
            throw new IllegalArgumentException("defaultMaxTokens (" + defaultMaxTokens + ") must be >= 1");
        }
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(fault, "fault");
        requireNonNegative("pingEvery", pingEvery);
        requireNonNegative("emptyEvery", emptyEvery);
        requireNonNegative("splitDelayNanos", splitDelayNanos);
        if (splitDelayNanos > 0 && !splitWrites) {
            throw new IllegalArgumentException("splitDelayNanos (" + splitDelayNanos + ") needs splitWrites");
        }
    }

    /** Zero latency, one token per chunk, usage as requested, no faults. */
    public static Plan fullSpeed() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether this plan is served from the pre-rendered cache. */
    public boolean isFullSpeed() {
        return ttftNanos == 0 && gapNanos == 0 && !splitWrites && fault.byteLevelOnly();
    }

    public Builder toBuilder() {
        Builder b = new Builder();
        b.ttftNanos = ttftNanos;
        b.gapNanos = gapNanos;
        b.tokensPerChunk = tokensPerChunk;
        b.defaultMaxTokens = defaultMaxTokens;
        b.usage = usage;
        b.fault = fault;
        b.crlf = crlf;
        b.pingEvery = pingEvery;
        b.emptyEvery = emptyEvery;
        b.splitWrites = splitWrites;
        b.splitDelayNanos = splitDelayNanos;
        return b;
    }

    private static void requireNonNegative(String field, long value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " (" + value + ") must be >= 0");
        }
    }

    public static final class Builder {
        private long ttftNanos;
        private long gapNanos;
        private int tokensPerChunk = 1;
        private int defaultMaxTokens = 16;
        private UsageMode usage = UsageMode.REQUEST;
        private Fault fault = Fault.none();
        private boolean crlf;
        private int pingEvery;
        private int emptyEvery;
        private boolean splitWrites;
        private long splitDelayNanos;

        private Builder() {
        }

        public Builder ttft(Duration ttft) {
            this.ttftNanos = ttft.toNanos();
            return this;
        }

        public Builder gap(Duration gap) {
            this.gapNanos = gap.toNanos();
            return this;
        }

        public Builder tokensPerChunk(int tokensPerChunk) {
            this.tokensPerChunk = tokensPerChunk;
            return this;
        }

        public Builder defaultMaxTokens(int defaultMaxTokens) {
            this.defaultMaxTokens = defaultMaxTokens;
            return this;
        }

        public Builder usage(UsageMode usage) {
            this.usage = usage;
            return this;
        }

        public Builder fault(Fault fault) {
            this.fault = fault;
            return this;
        }

        public Builder crlf(boolean crlf) {
            this.crlf = crlf;
            return this;
        }

        public Builder pingEvery(int pingEvery) {
            this.pingEvery = pingEvery;
            return this;
        }

        public Builder emptyEvery(int emptyEvery) {
            this.emptyEvery = emptyEvery;
            return this;
        }

        /** Split every SSE event across two writes, the second after {@code delay}. */
        public Builder splitWrites(Duration delay) {
            this.splitWrites = true;
            this.splitDelayNanos = delay.toNanos();
            return this;
        }

        public Plan build() {
            return new Plan(ttftNanos, gapNanos, tokensPerChunk, defaultMaxTokens, usage, fault, crlf, pingEvery,
                    emptyEvery, splitWrites, splitDelayNanos);
        }
    }
}
