package dev.servebench.metric;

import dev.servebench.record.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/**
 * The successful requests of one tool's definition, in dispatch order, with the lists its
 * {@code calculate_metrics} builds from them (§2.1 SGLang, §2.2 vLLM of serving-metrics.md).
 */
final class Population {

    private final List<Timing> timings;
    private final long totalPromptLen;
    private final long totalOutputLen;
    private final Sample ttft;
    private final Sample tpot;
    private final double[] allTpots;
    private final Sample itl;
    private final Sample latency;

    private Population(List<RequestRecord> successes, TokenSource source, Function<RequestRecord, Timing> view) {
        int n = successes.size();
        timings = new ArrayList<>(n);
        double[] ttfts = new double[n];
        double[] latencies = new double[n];
        double[] tpotsOrZero = new double[n];
        double[] tpots = new double[n];
        int tpotCount = 0;
        int itlCount = 0;
        long prompt = 0;
        long output = 0;
        for (int i = 0; i < n; i++) {
            RequestRecord record = successes.get(i);
            Timing timing = view.apply(record);
            timings.add(timing);
            long outputLen = source.outputLength(record);
            prompt += record.promptLen();
            output += outputLen;
            ttfts[i] = timing.ttft();
            latencies[i] = timing.latency();
            // tpotsOrZero keeps 0.0 for output_len <= 1: vLLM's all_tpots, which goodput compares.
            if (outputLen > 1) {
                double value = (timing.latency() - timing.ttft()) / (double) (outputLen - 1);
                tpots[tpotCount++] = value;
                tpotsOrZero[i] = value;
            }
            itlCount += timing.itl().length;
        }
        double[] itls = new double[itlCount];
        int k = 0;
        for (Timing timing : timings) {
            System.arraycopy(timing.itl(), 0, itls, k, timing.itl().length);
            k += timing.itl().length;
        }
        totalPromptLen = prompt;
        totalOutputLen = output;
        ttft = new Sample(ttfts);
        tpot = new Sample(Arrays.copyOf(tpots, tpotCount));
        allTpots = tpotsOrZero;
        itl = new Sample(itls);
        latency = new Sample(latencies);
    }

    /** SGLang: every successful request; TTFT 0 when no text arrived, latency up to the last SSE line. */
    static Population sglang(List<RequestRecord> successes, TokenSource source) {
        return new Population(successes, source, Timing::sglang);
    }

    /** vLLM: callers pass only successes with at least one choice-bearing event (vLLM fails the rest). */
    static Population vllm(List<RequestRecord> successes, TokenSource source) {
        return new Population(successes, source, r -> new Timing(
                r.startSeconds(),
                r.vllmTtftSeconds().orElseThrow(
                        () -> new IllegalArgumentException("request " + r.index() + " has no event; not a vLLM success")),
                r.vllmItlSeconds(),
                r.vllmLatencySeconds()));
    }

    int completed() {
        return timings.size();
    }

    List<Timing> timings() {
        return timings;
    }

    long totalPromptLen() {
        return totalPromptLen;
    }

    long totalOutputLen() {
        return totalOutputLen;
    }

    Sample ttft() {
        return ttft;
    }

    Sample tpot() {
        return tpot;
    }

    /** tpot_i, or 0.0 where output_len_i <= 1; one entry per request (vLLM's {@code all_tpots}). */
    double allTpot(int i) {
        return allTpots[i];
    }

    Sample itl() {
        return itl;
    }

    Sample latency() {
        return latency;
    }
}
