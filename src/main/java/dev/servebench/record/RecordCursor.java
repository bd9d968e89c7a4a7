package dev.servebench.record;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * A reusable view of one stored request: {@link #moveTo} copies the request's fields and events out of
 * its {@link RecordStore}, so reading them afterwards needs no lock and allocates nothing (the event
 * buffers only grow to the longest request seen). One cursor per thread; the per-request definitions are
 * {@link RequestTimes}', exactly as {@link RequestRecord} applies them.
 */
public final class RecordCursor implements EventSequence {

    private final RecordStore store;
    private long[] nanos = new long[16];
    private int[] tokens = new int[16];
    private int events;
    private int slot = -1;
    private int index;
    private int promptLen;
    private int requestedOutputLen;
    private long intendedNanos;
    private long readyNanos;
    private long sentNanos;
    private long endNanos;
    private int usagePrompt;
    private int usageCompletion;
    private byte outcome;
    private short httpStatus;
    private int retokenizedOutputLen;

    RecordCursor(RecordStore store) {
        this.store = store;
    }

    /** Loads the request in {@code slot} (append order, 0-based); returns this cursor. */
    public RecordCursor moveTo(int slot) {
        store.load(slot, this);
        return this;
    }

    void set(int slot, int index, int promptLen, int requestedOutputLen, long intended, long ready, long sent,
            long end, int usagePrompt, int usageCompletion, byte outcome, short httpStatus, int retokenizedOutputLen) {
        this.slot = slot;
        this.index = index;
        this.promptLen = promptLen;
        this.requestedOutputLen = requestedOutputLen;
        this.intendedNanos = intended;
        this.readyNanos = ready;
        this.sentNanos = sent;
        this.endNanos = end;
        this.usagePrompt = usagePrompt;
        this.usageCompletion = usageCompletion;
        this.outcome = outcome;
        this.httpStatus = httpStatus;
        this.retokenizedOutputLen = retokenizedOutputLen;
    }

    /** Buffers for {@code count} events, for the store to fill. */
    long[] nanosBuffer(int count) {
        if (nanos.length < count) {
            nanos = new long[Math.max(count, nanos.length * 2)];
            tokens = new int[nanos.length];
        }
        events = count;
        return nanos;
    }

    int[] tokensBuffer() {
        return tokens;
    }

    public int slot() {
        return slot;
    }

    public int index() {
        return index;
    }

    public int promptLen() {
        return promptLen;
    }

    public int requestedOutputLen() {
        return requestedOutputLen;
    }

    public long intendedNanos() {
        return intendedNanos;
    }

    public long readyNanos() {
        return readyNanos;
    }

    public long sentNanos() {
        return sentNanos;
    }

    public long endNanos() {
        return endNanos;
    }

    public boolean hasUsage() {
        return usagePrompt >= 0;
    }

    /** {@code usage.prompt_tokens}; only meaningful when {@link #hasUsage()}. */
    public int usagePromptTokens() {
        return usagePrompt;
    }

    /** {@code usage.completion_tokens}; only meaningful when {@link #hasUsage()}. */
    public int usageCompletionTokens() {
        return usageCompletion;
    }

    public Optional<Usage> usage() {
        return hasUsage() ? Optional.of(new Usage(usagePrompt, usageCompletion)) : Optional.empty();
    }

    /** Whether the client tokenizer re-counted this request's generated text. */
    public boolean hasRetokenizedOutputLen() {
        return retokenizedOutputLen >= 0;
    }

    /** The client tokenizer's count of the generated text; only meaningful when {@link #hasRetokenizedOutputLen()}. */
    public int retokenizedOutputLen() {
        return retokenizedOutputLen;
    }

    public boolean succeeded() {
        return outcome == 0;
    }

    /** The failure kind, or null for a success. */
    public FailureKind failureKind() {
        return outcome == 0 ? null : FailureKind.values()[outcome - 1];
    }

    public int httpStatus() {
        return httpStatus;
    }

    @Override
    public int size() {
        return events;
    }

    @Override
    public long nanosAt(int i) {
        return nanos[Objects.checkIndex(i, events)];
    }

    @Override
    public int tokensAt(int i) {
        return tokens[Objects.checkIndex(i, events)];
    }

    public long queueNanos() {
        return sentNanos - intendedNanos;
    }

    public long dispatchLagNanos() {
        return sentNanos - readyNanos;
    }

    public double startSeconds() {
        return RequestTimes.seconds(sentNanos);
    }

    public double sglangTtftSeconds() {
        return RequestTimes.sglangTtftSeconds(this, sentNanos);
    }

    public double sglangLatencySeconds() {
        return RequestTimes.sglangLatencySeconds(sentNanos, endNanos);
    }

    /** vLLM TTFT; the request must have at least one event. */
    public double vllmTtftSeconds() {
        return RequestTimes.vllmTtftSeconds(this, sentNanos);
    }

    public double vllmLatencySeconds() {
        return RequestTimes.vllmLatencySeconds(this, sentNanos);
    }

    /** The current request's events as an immutable timeline (allocates; for rebuilding a record). */
    ChunkTimeline timeline() {
        return ChunkTimeline.of(Arrays.copyOf(nanos, events), Arrays.copyOf(tokens, events));
    }
}
