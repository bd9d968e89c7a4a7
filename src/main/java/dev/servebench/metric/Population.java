package dev.servebench.metric;

import dev.servebench.record.RecordCursor;
import dev.servebench.record.RecordStore;
import dev.servebench.record.RequestTimes;
import java.util.Arrays;
import java.util.function.DoubleConsumer;

/**
 * The successful requests of one tool's definition, in dispatch order, with the lists its
 * {@code calculate_metrics} builds from them (docs/reference-semantics.md, SGLang metrics and vLLM
 * metrics). Per-request values are held in arrays (a few doubles per request); per-event values (the ITL list, the token event
 * times) are recomputed from the store on every pass, because they are two orders of magnitude more.
 */
final class Population {

    /** Which tool's per-request definitions apply. */
    enum Tool {
        SGLANG, VLLM
    }

    private final RecordStore store;
    private final int[] slots;
    private final Tool tool;
    private final double[] starts;
    private final double[] ttfts;
    private final double[] latencies;
    private final double[] allTpots;
    private final long totalPromptLen;
    private final long totalUsagePromptTokens;
    private final long totalOutputLen;
    private final Sample ttft;
    private final Sample tpot;
    private final Sample itl;
    private final Sample latency;

    /**
     * @param slots the population's store slots in dispatch order; for vLLM only successes with at least
     *              one choice-bearing event (vLLM fails the rest)
     */
    Population(RecordStore store, int[] slots, Tool tool, TokenSource source, RankSelect.Limits limits) {
        this.store = store;
        this.slots = slots;
        this.tool = tool;
        int n = slots.length;
        starts = new double[n];
        ttfts = new double[n];
        latencies = new double[n];
        allTpots = new double[n];
        double[] tpots = new double[n];
        int tpotCount = 0;
        long itlCount = 0;
        long prompt = 0;
        long usagePrompt = 0;
        long output = 0;
        RecordCursor c = store.cursor();
        for (int i = 0; i < n; i++) {
            c.moveTo(slots[i]);
            if (tool == Tool.VLLM && c.size() == 0) {
                throw new IllegalArgumentException("request " + c.index() + " has no event; not a vLLM success");
            }
            starts[i] = c.startSeconds();
            ttfts[i] = tool == Tool.SGLANG ? c.sglangTtftSeconds() : c.vllmTtftSeconds();
            latencies[i] = tool == Tool.SGLANG ? c.sglangLatencySeconds() : c.vllmLatencySeconds();
            long outputLen = source.outputLength(c);
            prompt += c.promptLen();
            usagePrompt += c.hasUsage() ? c.usagePromptTokens() : c.promptLen();
            output += outputLen;
            // allTpots keeps 0.0 for output_len <= 1: vLLM's all_tpots, which goodput compares.
            if (outputLen > 1) {
                double value = (latencies[i] - ttfts[i]) / (double) (outputLen - 1);
                tpots[tpotCount++] = value;
                allTpots[i] = value;
            }
            itlCount += itlCount(c);
        }
        totalPromptLen = prompt;
        totalUsagePromptTokens = usagePrompt;
        totalOutputLen = output;
        ttft = new Sample(ttfts, limits);
        tpot = new Sample(Arrays.copyOf(tpots, tpotCount), limits);
        itl = new Sample(new ItlSeries(itlCount), limits);
        latency = new Sample(latencies, limits);
    }

    private int itlCount(RecordCursor c) {
        return tool == Tool.SGLANG ? RequestTimes.sglangItlCount(c) : RequestTimes.vllmItlCount(c);
    }

    /** The cursor's request's ITLs in {@code buffer} (grown as needed); returns the buffer. */
    private double[] itls(RecordCursor c, double[] buffer, int count) {
        double[] out = buffer.length >= count ? buffer : new double[Math.max(count, 2 * buffer.length)];
        if (tool == Tool.SGLANG) {
            RequestTimes.sglangItlSeconds(c, out);
        } else {
            RequestTimes.vllmItlSeconds(c, out);
        }
        return out;
    }

    int completed() {
        return slots.length;
    }

    double start(int i) {
        return starts[i];
    }

    double ttft(int i) {
        return ttfts[i];
    }

    double latency(int i) {
        return latencies[i];
    }

    long totalPromptLen() {
        return totalPromptLen;
    }

    /** Sum of usage.prompt_tokens, each request without usage counting its dataset prompt_len instead. */
    long totalUsagePromptTokens() {
        return totalUsagePromptTokens;
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

    /**
     * Every token event's time as the peak metrics compute it, request by request: start + ttft, then
     * + each ITL entry by sequential addition (a float sum, so not the event's recorded time).
     */
    void forEachTokenEventTime(DoubleConsumer action) {
        RecordCursor c = store.cursor();
        double[] buffer = new double[64];
        for (int i = 0; i < slots.length; i++) {
            c.moveTo(slots[i]);
            double t = starts[i] + ttfts[i];
            action.accept(t);
            int count = itlCount(c);
            buffer = itls(c, buffer, count);
            for (int j = 0; j < count; j++) {
                t = t + buffer[j];
                action.accept(t);
            }
        }
    }

    /** The ITL list: every request's ITLs concatenated in dispatch order, recomputed on each pass. */
    private final class ItlSeries implements DoubleSeries {
        private final long size;

        ItlSeries(long size) {
            this.size = size;
        }

        @Override
        public long size() {
            return size;
        }

        @Override
        public Pass pass() {
            return new Pass() {
                private final RecordCursor c = store.cursor();
                private double[] buffer = new double[64];
                private int next;
                private int count;
                private int request;

                @Override
                public double next() {
                    while (next == count) {
                        c.moveTo(slots[request++]);
                        count = itlCount(c);
                        buffer = itls(c, buffer, count);
                        next = 0;
                    }
                    return buffer[next++];
                }
            };
        }
    }
}
