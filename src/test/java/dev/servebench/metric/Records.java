package dev.servebench.metric;

import dev.servebench.record.ChunkTimeline;
import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import dev.servebench.record.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Test fixture: hand-built request records in integer nanoseconds (0 = benchmark start). */
public final class Records {

    private Records() {}

    public static Builder aRequest() {
        return new Builder();
    }

    /** Milliseconds as nanoseconds. */
    public static long ms(long millis) {
        return millis * 1_000_000L;
    }

    /** Builds the requests with index = position in the argument list. */
    public static List<RequestRecord> inOrder(Builder... builders) {
        List<RequestRecord> records = new ArrayList<>();
        for (int i = 0; i < builders.length; i++) {
            records.add(builders[i].index(i).build());
        }
        return records;
    }

    public static final class Builder {
        private int index = -1;
        private int promptLen = 10;
        private int requestedOutputLen = 16;
        private Long intendedNanos;
        private long sentNanos;
        private Long endNanos;
        private final ChunkTimeline.Builder chunks = new ChunkTimeline.Builder(4);
        private long lastChunk = -1;
        private Optional<Usage> usage = Optional.empty();
        private Outcome outcome = Outcome.SUCCESS;
        private Integer retokenized;

        public Builder index(int index) {
            this.index = index;
            return this;
        }

        public Builder prompt(int promptLen) {
            this.promptLen = promptLen;
            return this;
        }

        public Builder intendedAt(long nanos) {
            this.intendedNanos = nanos;
            return this;
        }

        public Builder sentAt(long nanos) {
            this.sentNanos = nanos;
            return this;
        }

        /** One event per time, one token each. */
        public Builder chunksAt(long... nanos) {
            for (long t : nanos) {
                chunk(t, 1);
            }
            return this;
        }

        public Builder chunk(long nanos, int tokens) {
            chunks.add(nanos, tokens);
            lastChunk = nanos;
            return this;
        }

        /** An event whose choices carried no text (a role-only chat chunk). */
        public Builder emptyChunkAt(long nanos) {
            return chunk(nanos, 0);
        }

        /** The last non-empty SSE line ([DONE]); defaults to the last chunk, or the send time. */
        public Builder endAt(long nanos) {
            this.endNanos = nanos;
            return this;
        }

        public Builder usage(int promptTokens, int completionTokens) {
            this.usage = Optional.of(new Usage(promptTokens, completionTokens));
            return this;
        }

        /** The client tokenizer's count of the request's generated text. */
        public Builder retokenized(int tokens) {
            this.retokenized = tokens;
            return this;
        }

        public Builder failed(FailureKind kind) {
            this.outcome = Outcome.failure(kind, "test failure " + kind);
            return this;
        }

        public RequestRecord build() {
            if (index < 0) {
                throw new IllegalStateException("index not set; use index(...) or Records.inOrder(...)");
            }
            long end = endNanos != null ? endNanos : Math.max(sentNanos, lastChunk);
            long intended = intendedNanos != null ? intendedNanos : sentNanos;
            RequestRecord record = new RequestRecord(index, promptLen, requestedOutputLen, intended, sentNanos, end,
                    chunks.build(), usage, outcome);
            return retokenized == null ? record : record.withRetokenizedOutputLen(retokenized);
        }
    }
}
