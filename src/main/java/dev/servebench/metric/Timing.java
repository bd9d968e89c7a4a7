package dev.servebench.metric;

/**
 * One successful request as one tool's {@code calculate_metrics} sees it, in seconds.
 *
 * @param start   start_time (send instant)
 * @param ttft    the tool's TTFT
 * @param itl     the tool's ITL list (owned; not modified)
 * @param latency the tool's latency
 */
record Timing(double start, double ttft, double[] itl, double latency) {

    /** SGLang's view of a successful request: TTFT 0 when no text arrived, latency up to the last SSE line. */
    static Timing sglang(dev.servebench.record.RequestRecord r) {
        return new Timing(r.startSeconds(), r.sglangTtftSeconds(), r.sglangItlSeconds(), r.sglangLatencySeconds());
    }
}
