package dev.servebench.metric;

import static dev.servebench.metric.Direction.HIGHER_IS_BETTER;
import static dev.servebench.metric.Direction.INFORMATIONAL;
import static dev.servebench.metric.Direction.LOWER_IS_BETTER;
import static dev.servebench.metric.LatencySeries.DISPATCH_LAG;
import static dev.servebench.metric.LatencySeries.QUEUE_TIME;
import static dev.servebench.metric.LatencySeries.SGLANG_E2E;
import static dev.servebench.metric.LatencySeries.SGLANG_ITL;
import static dev.servebench.metric.LatencySeries.SGLANG_TPOT;
import static dev.servebench.metric.LatencySeries.SGLANG_TTFT;
import static dev.servebench.metric.LatencySeries.VLLM_E2EL;
import static dev.servebench.metric.LatencySeries.VLLM_ITL;
import static dev.servebench.metric.LatencySeries.VLLM_TPOT;
import static dev.servebench.metric.LatencySeries.VLLM_TTFT;
import static dev.servebench.metric.MetricDefinition.servebench;
import static dev.servebench.metric.MetricDefinition.servebenchWhenMeasured;
import static dev.servebench.metric.MetricDefinition.sglang;
import static dev.servebench.metric.MetricDefinition.sglangWhenMeasured;
import static dev.servebench.metric.MetricDefinition.stat;
import static dev.servebench.metric.MetricDefinition.vllm;
import static dev.servebench.metric.Statistic.MAX;
import static dev.servebench.metric.Statistic.MEAN;
import static dev.servebench.metric.Statistic.MEDIAN;
import static dev.servebench.metric.Statistic.P90;
import static dev.servebench.metric.Statistic.P95;
import static dev.servebench.metric.Statistic.P99;
import static dev.servebench.metric.Statistic.STD;
import static dev.servebench.metric.TokenBasis.NONE;
import static dev.servebench.metric.TokenBasis.OUTPUT_LENGTH;
import static dev.servebench.metric.TokenBasis.PROMPT_AND_OUTPUT_LENGTH;
import static dev.servebench.metric.TokenBasis.PROMPT_LENGTH;
import static dev.servebench.metric.TokenBasis.RETOKENIZED_AND_USAGE;
import static dev.servebench.metric.TokenBasis.RETOKENIZED_OUTPUT;
import static dev.servebench.metric.TokenBasis.TOKEN_EVENTS;
import static dev.servebench.metric.TokenBasis.USAGE_AND_CHUNKS;
import static dev.servebench.metric.TokenBasis.USAGE_AND_PROMPT_LENGTH;
import static dev.servebench.metric.TokenBasis.USAGE_PROMPT_TOKENS;
import static dev.servebench.metric.TokenBasis.USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH;
import static dev.servebench.metric.Unit.MILLISECONDS;
import static dev.servebench.metric.Unit.REQUESTS;
import static dev.servebench.metric.Unit.REQUESTS_PER_SECOND;
import static dev.servebench.metric.Unit.SECONDS;
import static dev.servebench.metric.Unit.TOKENS;
import static dev.servebench.metric.Unit.TOKENS_PER_SECOND;

import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Every metric servebench reports, each defined exactly once: id, the reference tool's names, unit,
 * direction, origin, formula and computation. D is the benchmark duration in seconds; "successful" is
 * SGLang's definition (HTTP 200, stream read to its end), "vLLM-successful" additionally needs at least
 * one choice-bearing event. docs/metrics.md renders this table and a test keeps the two in step.
 */
public enum MetricId {
    // ---- SGLang bench_serving (§2.1) ----
    BENCHMARK_DURATION(sglang("benchmark_duration", "duration", "Benchmark duration (s):", SECONDS, INFORMATIONAL,
            NONE, "benchmark_duration_nanos / 1e9 (= D)", Aggregation::durationSeconds)),
    COMPLETED(sglang("completed", "Successful requests:", REQUESTS, HIGHER_IS_BETTER, NONE,
            "number of successful requests", a -> a.sglang().completed())),
    TOTAL_INPUT_TOKENS(sglang("total_input_tokens", "Total input tokens:", TOKENS, INFORMATIONAL, PROMPT_LENGTH,
            "sum of dataset prompt_len over successful requests", Aggregation::totalInputTokens)
            .underServerUsage(USAGE_PROMPT_TOKENS, "sum of usage.prompt_tokens over successful requests (dataset"
                    + " prompt_len where a response carried no usage)")),
    TOTAL_OUTPUT_TOKENS(sglang("total_output_tokens", "Total generated tokens:", TOKENS, INFORMATIONAL,
            OUTPUT_LENGTH, "sum of output_len_i over successful requests", a -> a.sglang().totalOutputLen())),
    // SGLang writes and prints the retokenized total; measured only with a client tokenizer (absent, not 0).
    TOTAL_OUTPUT_TOKENS_RETOKENIZED(sglangWhenMeasured("total_output_tokens_retokenized",
            "total_output_tokens_retokenized", "Total generated tokens (retokenized):", TOKENS, INFORMATIONAL,
            RETOKENIZED_OUTPUT, "sum over successful requests of len(encode(generated_text_i,"
                    + " add_special_tokens=False)) with the client tokenizer; absent without one",
            a -> a.retokenized().total())),
    REQUEST_THROUGHPUT(sglang("request_throughput", "Request throughput (req/s):", REQUESTS_PER_SECOND,
            HIGHER_IS_BETTER, NONE, "completed / D", a -> a.perSecond(a.sglang().completed()))),
    INPUT_THROUGHPUT(sglang("input_throughput", "Input token throughput (tok/s):", TOKENS_PER_SECOND,
            HIGHER_IS_BETTER, PROMPT_LENGTH, "total_input_tokens / D",
            a -> a.perSecond(a.totalInputTokens()))
            .underServerUsage(USAGE_PROMPT_TOKENS, "total_input_tokens / D; total_input_tokens from usage.prompt_tokens")),
    OUTPUT_THROUGHPUT(sglang("output_throughput", "Output token throughput (tok/s):", TOKENS_PER_SECOND,
            HIGHER_IS_BETTER, OUTPUT_LENGTH, "total_output_tokens / D",
            a -> a.perSecond(a.sglang().totalOutputLen()))),
    // SGLang computes it (BenchmarkMetrics) but neither prints nor writes it: no key, no label.
    OUTPUT_THROUGHPUT_RETOKENIZED(sglangWhenMeasured("output_throughput_retokenized", null, null, TOKENS_PER_SECOND,
            HIGHER_IS_BETTER, RETOKENIZED_OUTPUT, "total_output_tokens_retokenized / D; absent without a client"
                    + " tokenizer", a -> map(a.retokenized().total(), a::perSecond))),
    TOTAL_THROUGHPUT(sglang("total_throughput", "Total token throughput (tok/s):", TOKENS_PER_SECOND,
            HIGHER_IS_BETTER, PROMPT_AND_OUTPUT_LENGTH, "(total_input_tokens + total_output_tokens) / D",
            a -> a.perSecond(a.totalInputTokens() + a.sglang().totalOutputLen()))
            .underServerUsage(USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH, "(total_input_tokens + total_output_tokens) / D;"
                    + " total_input_tokens from usage.prompt_tokens")),
    PEAK_OUTPUT_THROUGHPUT(sglang("peak_output_throughput", "max_output_tokens_per_s",
            "Peak output token throughput (tok/s):", TOKENS_PER_SECOND, HIGHER_IS_BETTER, TOKEN_EVENTS,
            "max over 1-s buckets b = int(t - t0) (t0 = earliest successful start) of token events: start + ttft,"
                    + " then + each ITL entry by sequential addition; counts events, not output_len",
            a -> PeakBuckets.peakTokenEvents(a.sglang()))),
    PEAK_CONCURRENT_REQUESTS(sglang("peak_concurrent_requests", "max_concurrent_requests",
            "Peak concurrent requests:", REQUESTS, INFORMATIONAL, NONE,
            "max over 1-s buckets of successful requests touching the bucket: buckets int(start - t0) through"
                    + " int(start + e2e_latency - t0); back-to-back requests in one second all count",
            a -> PeakBuckets.peakConcurrentBuckets(a.sglang()))),
    CONCURRENCY(sglang("concurrency", "Concurrency:", REQUESTS, INFORMATIONAL, NONE,
            "np.sum(e2e_latency_i) / D (mean number of requests in flight)",
            a -> a.perSecond(a.sglang().latency().sum()))),
    MEAN_E2E_LATENCY_MS(stat(MEAN, SGLANG_E2E)),
    MEDIAN_E2E_LATENCY_MS(stat(MEDIAN, SGLANG_E2E)),
    STD_E2E_LATENCY_MS(stat(STD, SGLANG_E2E)),
    P90_E2E_LATENCY_MS(stat(P90, SGLANG_E2E)),
    P95_E2E_LATENCY_MS(stat(P95, SGLANG_E2E)),
    P99_E2E_LATENCY_MS(stat(P99, SGLANG_E2E)),
    MEAN_TTFT_MS(stat(MEAN, SGLANG_TTFT)),
    MEDIAN_TTFT_MS(stat(MEDIAN, SGLANG_TTFT)),
    STD_TTFT_MS(stat(STD, SGLANG_TTFT)),
    P90_TTFT_MS(stat(P90, SGLANG_TTFT)),
    P95_TTFT_MS(stat(P95, SGLANG_TTFT)),
    P99_TTFT_MS(stat(P99, SGLANG_TTFT)),
    MEAN_TPOT_MS(stat(MEAN, SGLANG_TPOT)),
    MEDIAN_TPOT_MS(stat(MEDIAN, SGLANG_TPOT)),
    STD_TPOT_MS(stat(STD, SGLANG_TPOT)),
    P90_TPOT_MS(stat(P90, SGLANG_TPOT)),
    P95_TPOT_MS(stat(P95, SGLANG_TPOT)),
    P99_TPOT_MS(stat(P99, SGLANG_TPOT)),
    MEAN_ITL_MS(stat(MEAN, SGLANG_ITL)),
    MEDIAN_ITL_MS(stat(MEDIAN, SGLANG_ITL)),
    STD_ITL_MS(stat(STD, SGLANG_ITL)),
    P90_ITL_MS(stat(P90, SGLANG_ITL)),
    P95_ITL_MS(stat(P95, SGLANG_ITL)),
    P99_ITL_MS(stat(P99, SGLANG_ITL)),
    MAX_ITL_MS(stat(MAX, SGLANG_ITL)),

    // ---- vLLM bench serve (§2.2, §3), where it differs from SGLang ----
    VLLM_COMPLETED(vllm("vllm_completed", "completed", "Successful requests:", REQUESTS, HIGHER_IS_BETTER, NONE,
            "number of vLLM-successful requests", a -> OptionalDouble.of(a.vllm().completed()))),
    FAILED(vllm("failed", "failed", "Failed requests:", REQUESTS, LOWER_IS_BETTER, NONE,
            "requests - vllm_completed: failed outcomes plus successful streams without any choice-bearing event",
            a -> OptionalDouble.of(a.vllmFailed()))),
    REQUEST_GOODPUT(vllm("request_goodput", "request_goodput", "Request goodput (req/s):", REQUESTS_PER_SECOND,
            HIGHER_IS_BETTER, OUTPUT_LENGTH,
            "good / D; a vLLM-successful request is good when slo_ms / 1000 >= value for every given SLO"
                    + " (vLLM ttft, tpot with 0.0 for output_len_i <= 1, e2el); absent without SLOs",
            Aggregation::requestGoodput)),
    VLLM_PEAK_OUTPUT_THROUGHPUT(vllm("vllm_peak_output_throughput", "max_output_tokens_per_s",
            "Peak output token throughput (tok/s):", TOKENS_PER_SECOND, HIGHER_IS_BETTER, TOKEN_EVENTS,
            "as peak_output_throughput, over vLLM-successful requests with vLLM's ttft, ITL and e2el"
                    + " (every choice-bearing event counts, empty text included)",
            a -> OptionalDouble.of(PeakBuckets.peakTokenEvents(a.vllm())))),
    VLLM_PEAK_CONCURRENT_REQUESTS(vllm("vllm_peak_concurrent_requests", "max_concurrent_requests",
            "Peak concurrent requests:", REQUESTS, INFORMATIONAL, NONE,
            "peak running count over half-open [start, start + e2el) of vLLM-successful requests,"
                    + " departures before arrivals at equal times (exact sweep line)",
            a -> OptionalDouble.of(PeakBuckets.peakConcurrentSweep(a.vllm())))),
    VLLM_MEAN_TTFT_MS(stat(MEAN, VLLM_TTFT)),
    VLLM_MEDIAN_TTFT_MS(stat(MEDIAN, VLLM_TTFT)),
    VLLM_STD_TTFT_MS(stat(STD, VLLM_TTFT)),
    VLLM_P90_TTFT_MS(stat(P90, VLLM_TTFT)),
    VLLM_P95_TTFT_MS(stat(P95, VLLM_TTFT)),
    VLLM_P99_TTFT_MS(stat(P99, VLLM_TTFT)),
    VLLM_MEAN_TPOT_MS(stat(MEAN, VLLM_TPOT)),
    VLLM_MEDIAN_TPOT_MS(stat(MEDIAN, VLLM_TPOT)),
    VLLM_STD_TPOT_MS(stat(STD, VLLM_TPOT)),
    VLLM_P90_TPOT_MS(stat(P90, VLLM_TPOT)),
    VLLM_P95_TPOT_MS(stat(P95, VLLM_TPOT)),
    VLLM_P99_TPOT_MS(stat(P99, VLLM_TPOT)),
    VLLM_MEAN_ITL_MS(stat(MEAN, VLLM_ITL)),
    VLLM_MEDIAN_ITL_MS(stat(MEDIAN, VLLM_ITL)),
    VLLM_STD_ITL_MS(stat(STD, VLLM_ITL)),
    VLLM_P90_ITL_MS(stat(P90, VLLM_ITL)),
    VLLM_P95_ITL_MS(stat(P95, VLLM_ITL)),
    VLLM_P99_ITL_MS(stat(P99, VLLM_ITL)),
    VLLM_MEAN_E2EL_MS(stat(MEAN, VLLM_E2EL)),
    VLLM_MEDIAN_E2EL_MS(stat(MEDIAN, VLLM_E2EL)),
    VLLM_STD_E2EL_MS(stat(STD, VLLM_E2EL)),
    VLLM_P90_E2EL_MS(stat(P90, VLLM_E2EL)),
    VLLM_P95_E2EL_MS(stat(P95, VLLM_E2EL)),
    VLLM_P99_E2EL_MS(stat(P99, VLLM_E2EL)),

    // ---- servebench diagnostics ----
    MEAN_QUEUE_TIME_MS(stat(MEAN, QUEUE_TIME)),
    MEDIAN_QUEUE_TIME_MS(stat(MEDIAN, QUEUE_TIME)),
    P99_QUEUE_TIME_MS(stat(P99, QUEUE_TIME)),
    MAX_QUEUE_TIME_MS(stat(MAX, QUEUE_TIME)),
    MEAN_DISPATCH_LAG_MS(stat(MEAN, DISPATCH_LAG)),
    P99_DISPATCH_LAG_MS(stat(P99, DISPATCH_LAG)),
    MAX_DISPATCH_LAG_MS(stat(MAX, DISPATCH_LAG)),
    TOKEN_COUNT_MISMATCHES(servebench("token_count_mismatches", REQUESTS, INFORMATIONAL, USAGE_AND_CHUNKS,
            "successful requests whose usage.completion_tokens differs from the chunk-counted tokens",
            Aggregation::tokenCountMismatches)),
    USAGE_MISSING(servebench("usage_missing", REQUESTS, INFORMATIONAL, USAGE_AND_CHUNKS,
            "successful requests without a server usage object", Aggregation::usageMissing)),
    RETOKENIZED_MISMATCHES(servebenchWhenMeasured("retokenized_mismatches", REQUESTS, INFORMATIONAL,
            RETOKENIZED_AND_USAGE, "successful requests with server usage whose usage.completion_tokens differs from"
                    + " the retokenized count; absent without a client tokenizer", a -> a.retokenized().mismatches())),
    // The server's own input count, whatever --input-token-source says: with text prompts the dataset's is a guess.
    SERVER_INPUT_TOKENS(servebench("server_input_tokens", TOKENS, INFORMATIONAL, USAGE_PROMPT_TOKENS,
            "sum of usage.prompt_tokens over successful requests (dataset prompt_len where a response carried no"
                    + " usage: prompt_usage_missing)", a -> a.sglang().totalUsagePromptTokens())),
    SERVER_INPUT_THROUGHPUT(servebench("server_input_throughput", TOKENS_PER_SECOND, HIGHER_IS_BETTER,
            USAGE_PROMPT_TOKENS, "server_input_tokens / D", a -> a.perSecond(a.sglang().totalUsagePromptTokens()))),
    SERVER_TOTAL_THROUGHPUT(servebench("server_total_throughput", TOKENS_PER_SECOND, HIGHER_IS_BETTER,
            USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH, "(server_input_tokens + total_output_tokens) / D",
            a -> a.perSecond(a.sglang().totalUsagePromptTokens() + a.sglang().totalOutputLen()))),
    PROMPT_TOKEN_MISMATCHES(servebench("prompt_token_mismatches", REQUESTS, INFORMATIONAL, USAGE_AND_PROMPT_LENGTH,
            "successful requests whose usage.prompt_tokens differs from the dataset prompt_len (a BOS the server"
                    + " adds counts)", a -> a.inputTokens().mismatches())),
    PROMPT_USAGE_MISSING(servebench("prompt_usage_missing", REQUESTS, INFORMATIONAL, USAGE_AND_PROMPT_LENGTH,
            "successful requests without usage.prompt_tokens; their server_input_tokens is the dataset prompt_len",
            a -> a.inputTokens().usageMissing()));

    private final MetricDefinition definition;

    MetricId(MetricDefinition definition) {
        this.definition = definition;
    }

    /** snake_case id used in servebench's own output. */
    public String id() {
        return definition.id();
    }

    /** Key in SGLang's result JSON, where SGLang writes this metric. */
    public Optional<String> sglangKey() {
        return Optional.ofNullable(definition.sglangKey());
    }

    /** SGLang console label, exactly as printed (before padding), where SGLang prints this metric. */
    public Optional<String> sglangLabel() {
        return Optional.ofNullable(definition.sglangLabel());
    }

    /** Key in vLLM's result JSON, for metrics that reproduce vLLM's definition. */
    public Optional<String> vllmKey() {
        return Optional.ofNullable(definition.vllmKey());
    }

    /** vLLM console label, for metrics that reproduce vLLM's definition and that vLLM prints. */
    public Optional<String> vllmLabel() {
        return Optional.ofNullable(definition.vllmLabel());
    }

    public Unit unit() {
        return definition.unit();
    }

    public Direction direction() {
        return definition.direction();
    }

    public Origin origin() {
        return definition.origin();
    }

    /** The token counts this metric rests on under the default input token source. */
    public TokenBasis tokenBasis() {
        return definition.tokenBasis();
    }

    /** Human-readable formula, under the default input token source ({@link InputTokenSource#DATASET}). */
    public String formula() {
        return definition.formula();
    }

    /** The token counts this metric rests on when the run's input token source is {@code source}. */
    public TokenBasis tokenBasis(InputTokenSource source) {
        return definition.tokenBasis(source);
    }

    /** {@link #formula()} when the run's input token source is {@code source}. */
    public String formula(InputTokenSource source) {
        return definition.formula(source);
    }

    /** Whether {@code --input-token-source} changes what this metric counts. */
    public boolean followsInputTokenSource() {
        return definition.usageBasis() != null;
    }

    /** Whether this metric adds up input tokens under some input token source. */
    public boolean countsInputTokens() {
        return Arrays.stream(InputTokenSource.values())
                .anyMatch(s -> tokenBasis(s).inputCount() != TokenBasis.InputCount.NONE);
    }

    /** The statistic, for metrics that summarise a latency list. */
    public Optional<Statistic> statistic() {
        return Optional.ofNullable(definition.statistic());
    }

    /** The latency list, for metrics that summarise one. */
    public Optional<LatencySeries> series() {
        return Optional.ofNullable(definition.series());
    }

    public static Optional<MetricId> byId(String id) {
        return Arrays.stream(values()).filter(m -> m.id().equals(id)).findFirst();
    }

    private static OptionalDouble map(OptionalDouble value, java.util.function.DoubleUnaryOperator f) {
        return value.isPresent() ? OptionalDouble.of(f.applyAsDouble(value.getAsDouble())) : value;
    }

    OptionalDouble compute(Aggregation aggregation) {
        return definition.computation().apply(aggregation);
    }
}
