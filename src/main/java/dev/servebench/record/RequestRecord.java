package dev.servebench.record;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Everything observed about one measured request. All times are nanoseconds on the load point's
 * monotonic clock, where 0 is the benchmark start (the instant the arrival plan began).
 *
 * <p>The per-request views below ({@code sglang*}, {@code vllm*}) are the one place where the reference
 * tools' per-request definitions are reproduced; the {@code metric} package aggregates them.
 *
 * @param index              position in the dispatch order of the load point (0-based)
 * @param promptLen          the dataset row's prompt length in tokens (what SGLang sums as total_input)
 * @param requestedOutputLen max_tokens sent with the request
 * @param intendedNanos      when the arrival plan wanted the request sent
 * @param readyNanos         when the request was both due and had a free concurrency slot; the gap to
 *                           {@code sentNanos} is the client's own dispatch lag
 * @param sentNanos          when the request was actually written (after any concurrency wait)
 * @param endNanos           when the response ended: the last non-empty SSE line (normally
 *                           {@code data: [DONE]}) or the moment the failure was detected
 * @param chunks             every choice-bearing event with its token count
 * @param usage              the server's usage object, when it sent one
 * @param outcome            success, or the failure with its reason
 * @param retokenizedOutputLen the client tokenizer's count of the generated text (SGLang's
 *                           {@code len(tokenizer.encode(generated_text, add_special_tokens=False))}); empty when
 *                           the run had no tokenizer, and for failed requests
 */
public record RequestRecord(
        int index,
        int promptLen,
        int requestedOutputLen,
        long intendedNanos,
        long readyNanos,
        long sentNanos,
        long endNanos,
        ChunkTimeline chunks,
        Optional<Usage> usage,
        Outcome outcome,
        OptionalInt retokenizedOutputLen) {

    public RequestRecord {
        if (index < 0) {
            throw new IllegalArgumentException("index (" + index + ") must be >= 0");
        }
        if (promptLen < 0) {
            throw new IllegalArgumentException("promptLen (" + promptLen + ") must be >= 0");
        }
        if (requestedOutputLen < 0) {
            throw new IllegalArgumentException("requestedOutputLen (" + requestedOutputLen + ") must be >= 0");
        }
        if (readyNanos < intendedNanos) {
            throw new IllegalArgumentException("readyNanos (" + readyNanos + ") must be >= intendedNanos (" + intendedNanos + ")");
        }
        if (sentNanos < readyNanos) {
            throw new IllegalArgumentException("sentNanos (" + sentNanos + ") must be >= readyNanos (" + readyNanos + ")");
        }
        if (endNanos < sentNanos) {
            throw new IllegalArgumentException("endNanos (" + endNanos + ") must be >= sentNanos (" + sentNanos + ")");
        }
        Objects.requireNonNull(chunks, "chunks");
        Objects.requireNonNull(usage, "usage");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(retokenizedOutputLen, "retokenizedOutputLen");
        if (retokenizedOutputLen.isPresent() && retokenizedOutputLen.getAsInt() < 0) {
            throw new IllegalArgumentException("retokenizedOutputLen (" + retokenizedOutputLen.getAsInt()
                    + ") must be >= 0");
        }
        if (chunks.size() > 0 && (chunks.nanosAt(0) < sentNanos || chunks.nanosAt(chunks.size() - 1) > endNanos)) {
            throw new IllegalArgumentException("chunk times must lie within [sentNanos, endNanos] = [" + sentNanos + ", "
                    + endNanos + "]");
        }
    }

    /** A record without a retokenized output count (no client tokenizer). */
    public RequestRecord(int index, int promptLen, int requestedOutputLen, long intendedNanos, long readyNanos,
                         long sentNanos, long endNanos, ChunkTimeline chunks, Optional<Usage> usage, Outcome outcome) {
        this(index, promptLen, requestedOutputLen, intendedNanos, readyNanos, sentNanos, endNanos, chunks, usage,
                outcome, OptionalInt.empty());
    }

    /** A record whose request was ready the moment it was due (no concurrency wait). */
    public RequestRecord(int index, int promptLen, int requestedOutputLen, long intendedNanos, long sentNanos,
                         long endNanos, ChunkTimeline chunks, Optional<Usage> usage, Outcome outcome) {
        this(index, promptLen, requestedOutputLen, intendedNanos, intendedNanos, sentNanos, endNanos, chunks, usage, outcome);
    }

    /** This record with the client tokenizer's count of its generated text. */
    public RequestRecord withRetokenizedOutputLen(int tokens) {
        return new RequestRecord(index, promptLen, requestedOutputLen, intendedNanos, readyNanos, sentNanos, endNanos,
                chunks, usage, outcome, OptionalInt.of(tokens));
    }

    public boolean succeeded() {
        return outcome.succeeded();
    }

    /** Client queue time: actual send minus intended send (vLLM's {@code client_queue_time}). */
    public long queueNanos() {
        return sentNanos - intendedNanos;
    }

    /** Client dispatch lag: actual send minus the moment the request was due and had a slot. */
    public long dispatchLagNanos() {
        return sentNanos - readyNanos;
    }

    /** Output tokens counted from the stream: the sum of the events' token counts. */
    public long chunkOutputTokens() {
        return chunks.totalTokens();
    }

    /** Start time in seconds as SGLang records it ({@code start_time}, the instant just before the POST). */
    public double startSeconds() {
        return seconds(sentNanos);
    }

    /**
     * SGLang TTFT: first event with non-empty text minus send, in seconds; 0 when no such event
     * arrived (SGLang leaves its default).
     */
    public double sglangTtftSeconds() {
        return RequestTimes.sglangTtftSeconds(chunks, sentNanos);
    }

    /** vLLM TTFT: first event with non-empty {@code choices} (text may be empty), or empty if none came. */
    public Optional<Double> vllmTtftSeconds() {
        return chunks.size() == 0 ? Optional.empty() : Optional.of(RequestTimes.vllmTtftSeconds(chunks, sentNanos));
    }

    /** SGLang latency: last non-empty SSE line minus send, in seconds. */
    public double sglangLatencySeconds() {
        return RequestTimes.sglangLatencySeconds(sentNanos, endNanos);
    }

    /** vLLM latency: last choice-bearing event minus send (usage chunk and [DONE] excluded), in seconds. */
    public double vllmLatencySeconds() {
        return RequestTimes.vllmLatencySeconds(chunks, sentNanos);
    }

    /**
     * SGLang inter-token latencies in seconds: for each token event after the first, the gap to the
     * previous token event divided evenly over the event's tokens ({@code gap/n}, appended n times).
     * Events without tokens are skipped and do not advance the previous-event time. With one token per
     * event (the OpenAI paths) this is one entry per event, exactly as SGLang's OpenAI paths record it.
     */
    public double[] sglangItlSeconds() {
        double[] itl = new double[RequestTimes.sglangItlCount(chunks)];
        RequestTimes.sglangItlSeconds(chunks, itl);
        return itl;
    }

    /** vLLM inter-token latencies in seconds: one entry per choice-bearing event after the first. */
    public double[] vllmItlSeconds() {
        double[] itl = new double[RequestTimes.vllmItlCount(chunks)];
        RequestTimes.vllmItlSeconds(chunks, itl);
        return itl;
    }

    /** Nanoseconds to seconds, the unit SGLang and vLLM record. */
    public static double seconds(long nanos) {
        return RequestTimes.seconds(nanos);
    }
}
