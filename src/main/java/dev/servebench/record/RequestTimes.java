package dev.servebench.record;

/**
 * The reference tools' per-request definitions over one request's events, in seconds. {@link RequestRecord}
 * and {@link RecordCursor} both delegate here, so a record and its stored copy give bit-identical values.
 */
public final class RequestTimes {

    private RequestTimes() {}

    /** SGLang TTFT: first event with non-empty text minus send; 0 when no such event came. */
    public static double sglangTtftSeconds(EventSequence events, long sentNanos) {
        int first = events.firstTokenEvent();
        return first < 0 ? 0.0 : seconds(events.nanosAt(first) - sentNanos);
    }

    /** vLLM TTFT: first choice-bearing event minus send. Callers check that there is one. */
    public static double vllmTtftSeconds(EventSequence events, long sentNanos) {
        if (events.size() == 0) {
            throw new IllegalArgumentException("a request without events has no vLLM TTFT");
        }
        return seconds(events.nanosAt(0) - sentNanos);
    }

    /** SGLang latency: last non-empty SSE line minus send. */
    public static double sglangLatencySeconds(long sentNanos, long endNanos) {
        return seconds(endNanos - sentNanos);
    }

    /** vLLM latency: last choice-bearing event minus send; 0 without events. */
    public static double vllmLatencySeconds(EventSequence events, long sentNanos) {
        return events.size() == 0 ? 0.0 : seconds(events.nanosAt(events.size() - 1) - sentNanos);
    }

    /** Number of SGLang ITL entries: the tokens of every token event after the first. */
    public static int sglangItlCount(EventSequence events) {
        int first = events.firstTokenEvent();
        if (first < 0) {
            return 0;
        }
        long entries = 0;
        for (int i = first + 1; i < events.size(); i++) {
            entries += events.tokensAt(i);
        }
        return Math.toIntExact(entries);
    }

    /**
     * Writes the SGLang ITLs to {@code out[0..sglangItlCount)}: for each token event after the first, the
     * gap to the previous token event divided evenly over the event's tokens ({@code gap/n}, n times).
     * Events without tokens are skipped and do not advance the previous-event time.
     */
    public static void sglangItlSeconds(EventSequence events, double[] out) {
        int first = events.firstTokenEvent();
        if (first < 0) {
            return;
        }
        int k = 0;
        long previous = events.nanosAt(first);
        for (int i = first + 1; i < events.size(); i++) {
            int n = events.tokensAt(i);
            if (n == 0) {
                continue;
            }
            double share = seconds(events.nanosAt(i) - previous) / n;
            for (int j = 0; j < n; j++) {
                out[k++] = share;
            }
            previous = events.nanosAt(i);
        }
    }

    /** Number of vLLM ITL entries: one per choice-bearing event after the first. */
    public static int vllmItlCount(EventSequence events) {
        return Math.max(0, events.size() - 1);
    }

    /** Writes the vLLM ITLs to {@code out[0..vllmItlCount)}: gap of each event to the previous one. */
    public static void vllmItlSeconds(EventSequence events, double[] out) {
        for (int i = 1; i < events.size(); i++) {
            out[i - 1] = seconds(events.nanosAt(i) - events.nanosAt(i - 1));
        }
    }

    /** Nanoseconds to seconds, the unit SGLang and vLLM record. */
    public static double seconds(long nanos) {
        return nanos / 1e9;
    }
}
