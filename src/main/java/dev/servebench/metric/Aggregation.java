package dev.servebench.metric;

import java.util.Optional;
import java.util.OptionalDouble;

/** Everything a {@link MetricId} computation reads: both tools' populations, the duration and options. */
final class Aggregation {

    private final double durationSeconds;
    private final int requests;
    private final Population sglang;
    private final Population vllm;
    private final Sample queue;
    private final Sample dispatchLag;
    private final Optional<GoodputSlo> goodput;
    private final int tokenCountMismatches;
    private final int usageMissing;
    private final InputTokens inputTokens;
    private final RetokenizedOutput retokenized;

    Aggregation(double durationSeconds, int requests, Population sglang, Population vllm, Sample queue,
            Sample dispatchLag, Optional<GoodputSlo> goodput, int tokenCountMismatches, int usageMissing,
            InputTokens inputTokens, RetokenizedOutput retokenized) {
        this.durationSeconds = durationSeconds;
        this.requests = requests;
        this.sglang = sglang;
        this.vllm = vllm;
        this.queue = queue;
        this.dispatchLag = dispatchLag;
        this.goodput = goodput;
        this.tokenCountMismatches = tokenCountMismatches;
        this.usageMissing = usageMissing;
        this.inputTokens = inputTokens;
        this.retokenized = retokenized;
    }

    RetokenizedOutput retokenized() {
        return retokenized;
    }

    double durationSeconds() {
        return durationSeconds;
    }

    /**
     * {@code amount / D}. Both tools raise ZeroDivisionError when D is 0; we report 0 instead (the summary
     * carries a note) so that one degenerate run cannot poison a report with NaN or Infinity.
     */
    double perSecond(double amount) {
        return durationSeconds == 0 ? 0.0 : amount / durationSeconds;
    }

    Population sglang() {
        return sglang;
    }

    Population vllm() {
        return vllm;
    }

    /** vLLM's {@code failed}: every request that is not a vLLM success. */
    int vllmFailed() {
        return requests - vllm.completed();
    }

    int tokenCountMismatches() {
        return tokenCountMismatches;
    }

    int usageMissing() {
        return usageMissing;
    }

    InputTokens inputTokens() {
        return inputTokens;
    }

    /** SGLang's total_input_tokens under the run's input token source. */
    long totalInputTokens() {
        return switch (inputTokens.source()) {
            case DATASET -> sglang.totalPromptLen();
            case SERVER_USAGE -> sglang.totalUsagePromptTokens();
        };
    }

    Sample series(LatencySeries series) {
        return switch (series) {
            case SGLANG_TTFT -> sglang.ttft();
            case SGLANG_TPOT -> sglang.tpot();
            case SGLANG_ITL -> sglang.itl();
            case SGLANG_E2E -> sglang.latency();
            case VLLM_TTFT -> vllm.ttft();
            case VLLM_TPOT -> vllm.tpot();
            case VLLM_ITL -> vllm.itl();
            case VLLM_E2EL -> vllm.latency();
            case QUEUE_TIME -> queue;
            case DISPATCH_LAG -> dispatchLag;
        };
    }

    /** vLLM's {@code request_goodput}: good / D, absent when no objectives were given. */
    OptionalDouble requestGoodput() {
        if (goodput.isEmpty()) {
            return OptionalDouble.empty();
        }
        GoodputSlo slo = goodput.get();
        int good = 0;
        for (int i = 0; i < vllm.completed(); i++) {
            if (slo.isGood(vllm.ttft(i), vllm.allTpot(i), vllm.latency(i))) {
                good++;
            }
        }
        return OptionalDouble.of(perSecond(good));
    }
}
