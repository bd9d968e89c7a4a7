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
import static dev.servebench.metric.Reported.NOT_REPORTED;
import static dev.servebench.metric.Reported.PRINTED;
import static dev.servebench.metric.Reported.PRINTED_AND_WRITTEN;
import static dev.servebench.metric.Reported.WRITTEN;
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
import static dev.servebench.metric.View.HTML_LATENCY_TABLE;
import static dev.servebench.metric.View.RUN_HEADLINE;
import static dev.servebench.metric.View.THROUGHPUT_TABLE;
import static dev.servebench.metric.View.TREND_HEADLINE;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Every metric servebench reports, each defined exactly once: id, the reference tool's names, unit,
 * direction, origin, formula and computation, and what the views need: where it is shown
 * ({@link #inView(View)}, {@link #consoleLabel()}) and whether the regression gate judges it
 * ({@link #gated()}). Views select metrics by these declarations, so a new metric is one constant here
 * (plus its test and the regenerated docs/metrics.md). D is the benchmark duration in seconds;
 * "successful" is SGLang's definition (HTTP 200, stream read to its end), "vLLM-successful" additionally
 * needs at least one choice-bearing event. docs/metrics.md is generated from this enum (MetricsDocTest).
 * The order of the constants is the order of the summary file and of the consoles' lines.
 */
public enum MetricId {
    // ---- SGLang bench_serving (docs/reference-semantics.md, SGLang metrics), in SGLang's print order ----
    COMPLETED(sglang("completed", "Successful requests:", REQUESTS, HIGHER_IS_BETTER, NONE,
            "number of successful requests", a -> a.sglang().completed())
            .gated().shown(RUN_HEADLINE, 9)),
    BENCHMARK_DURATION(sglang("benchmark_duration", "duration", "Benchmark duration (s):", SECONDS, INFORMATIONAL,
            NONE, "benchmark_duration_nanos / 1e9 (= D)", Aggregation::durationSeconds)),
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
            HIGHER_IS_BETTER, NONE, "completed / D", a -> a.perSecond(a.sglang().completed()))
            .gated()),
    INPUT_THROUGHPUT(sglang("input_throughput", "Input token throughput (tok/s):", TOKENS_PER_SECOND,
            HIGHER_IS_BETTER, PROMPT_LENGTH, "total_input_tokens / D",
            a -> a.perSecond(a.totalInputTokens()))
            .underServerUsage(USAGE_PROMPT_TOKENS, "total_input_tokens / D; total_input_tokens from usage.prompt_tokens")
            .gated().shown(RUN_HEADLINE, 3).shown(THROUGHPUT_TABLE, 2)),
    OUTPUT_THROUGHPUT(sglang("output_throughput", "Output token throughput (tok/s):", TOKENS_PER_SECOND,
            HIGHER_IS_BETTER, OUTPUT_LENGTH, "total_output_tokens / D",
            a -> a.perSecond(a.sglang().totalOutputLen()))
            .gated().shown(RUN_HEADLINE, 1).shown(THROUGHPUT_TABLE, 1).shown(TREND_HEADLINE)),
    // SGLang computes it (BenchmarkMetrics) but neither prints nor writes it: no key, no label.
    OUTPUT_THROUGHPUT_RETOKENIZED(sglangWhenMeasured("output_throughput_retokenized", null, null, TOKENS_PER_SECOND,
            HIGHER_IS_BETTER, RETOKENIZED_OUTPUT, "total_output_tokens_retokenized / D; absent without a client"
                    + " tokenizer", a -> map(a.retokenized().total(), a::perSecond))
            .console("Retokenized output throughput (tok/s):")),
    PEAK_OUTPUT_THROUGHPUT(sglang("peak_output_throughput", "max_output_tokens_per_s",
            "Peak output token throughput (tok/s):", TOKENS_PER_SECOND, HIGHER_IS_BETTER, TOKEN_EVENTS,
            "max over 1-s buckets b = int(t - t0) (t0 = earliest successful start) of token events: start + ttft,"
                    + " then + each ITL entry by sequential addition; counts events, not output_len",
            a -> PeakBuckets.peakTokenEvents(a.sglang()))
            .shown(RUN_HEADLINE, 2).shown(THROUGHPUT_TABLE, 4)),
    PEAK_CONCURRENT_REQUESTS(sglang("peak_concurrent_requests", "max_concurrent_requests",
            "Peak concurrent requests:", REQUESTS, INFORMATIONAL, NONE,
            "max over 1-s buckets of successful requests touching the bucket: buckets int(start - t0) through"
                    + " int(start + e2e_latency - t0); back-to-back requests in one second all count",
            a -> PeakBuckets.peakConcurrentBuckets(a.sglang()))),
    TOTAL_THROUGHPUT(sglang("total_throughput", "Total token throughput (tok/s):", TOKENS_PER_SECOND,
            HIGHER_IS_BETTER, PROMPT_AND_OUTPUT_LENGTH, "(total_input_tokens + total_output_tokens) / D",
            a -> a.perSecond(a.totalInputTokens() + a.sglang().totalOutputLen()))
            .underServerUsage(USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH, "(total_input_tokens + total_output_tokens) / D;"
                    + " total_input_tokens from usage.prompt_tokens")
            .gated().shown(RUN_HEADLINE, 4).shown(THROUGHPUT_TABLE, 3)),
    CONCURRENCY(sglang("concurrency", "Concurrency:", REQUESTS, INFORMATIONAL, NONE,
            "np.sum(e2e_latency_i) / D (mean number of requests in flight)",
            a -> a.perSecond(a.sglang().latency().sum()))
            .fractional()),
    MEAN_E2E_LATENCY_MS(stat(MEAN, SGLANG_E2E, PRINTED_AND_WRITTEN)),
    MEDIAN_E2E_LATENCY_MS(stat(MEDIAN, SGLANG_E2E, PRINTED_AND_WRITTEN).gated().shown(HTML_LATENCY_TABLE)),
    STD_E2E_LATENCY_MS(stat(STD, SGLANG_E2E, WRITTEN)),
    P90_E2E_LATENCY_MS(stat(P90, SGLANG_E2E, PRINTED_AND_WRITTEN).shown(HTML_LATENCY_TABLE)),
    P95_E2E_LATENCY_MS(stat(P95, SGLANG_E2E, PRINTED_AND_WRITTEN)),
    P99_E2E_LATENCY_MS(stat(P99, SGLANG_E2E, PRINTED_AND_WRITTEN).gated().shown(HTML_LATENCY_TABLE)),
    MEAN_TTFT_MS(stat(MEAN, SGLANG_TTFT, PRINTED_AND_WRITTEN)),
    MEDIAN_TTFT_MS(stat(MEDIAN, SGLANG_TTFT, PRINTED_AND_WRITTEN).gated().shown(HTML_LATENCY_TABLE)
            .shown(RUN_HEADLINE, 5)),
    STD_TTFT_MS(stat(STD, SGLANG_TTFT, WRITTEN)),
    P90_TTFT_MS(stat(P90, SGLANG_TTFT, PRINTED_AND_WRITTEN).shown(HTML_LATENCY_TABLE)),
    P95_TTFT_MS(stat(P95, SGLANG_TTFT, PRINTED_AND_WRITTEN)),
    P99_TTFT_MS(stat(P99, SGLANG_TTFT, PRINTED_AND_WRITTEN).gated().shown(HTML_LATENCY_TABLE)
            .shown(RUN_HEADLINE, 6).shown(TREND_HEADLINE)),
    // SGLang writes no p99.9: servebench's own tail statistic, over SGLang's TTFT; in no view, not gated.
    P999_TTFT_MS(stat(Statistic.percentile(99.9), SGLANG_TTFT, NOT_REPORTED)),
    MEAN_TPOT_MS(stat(MEAN, SGLANG_TPOT, PRINTED_AND_WRITTEN)),
    MEDIAN_TPOT_MS(stat(MEDIAN, SGLANG_TPOT, PRINTED_AND_WRITTEN).gated().shown(HTML_LATENCY_TABLE)),
    STD_TPOT_MS(stat(STD, SGLANG_TPOT, WRITTEN)),
    P90_TPOT_MS(stat(P90, SGLANG_TPOT, PRINTED_AND_WRITTEN).shown(HTML_LATENCY_TABLE)),
    P95_TPOT_MS(stat(P95, SGLANG_TPOT, PRINTED_AND_WRITTEN)),
    P99_TPOT_MS(stat(P99, SGLANG_TPOT, PRINTED_AND_WRITTEN).gated().shown(HTML_LATENCY_TABLE)),
    MEAN_ITL_MS(stat(MEAN, SGLANG_ITL, PRINTED_AND_WRITTEN)),
    MEDIAN_ITL_MS(stat(MEDIAN, SGLANG_ITL, PRINTED_AND_WRITTEN).gated().shown(HTML_LATENCY_TABLE)
            .shown(RUN_HEADLINE, 7)),
    STD_ITL_MS(stat(STD, SGLANG_ITL, WRITTEN)),
    P90_ITL_MS(stat(P90, SGLANG_ITL, PRINTED_AND_WRITTEN).shown(HTML_LATENCY_TABLE)),
    P95_ITL_MS(stat(P95, SGLANG_ITL, PRINTED_AND_WRITTEN)),
    P99_ITL_MS(stat(P99, SGLANG_ITL, PRINTED_AND_WRITTEN).gated().shown(HTML_LATENCY_TABLE)
            .shown(RUN_HEADLINE, 8).shown(TREND_HEADLINE)),
    MAX_ITL_MS(stat(MAX, SGLANG_ITL, PRINTED)),

    // ---- vLLM bench serve, where it differs from SGLang (docs/reference-semantics.md, vLLM metrics) ----
    VLLM_COMPLETED(vllm("vllm_completed", "completed", "Successful requests:", REQUESTS, HIGHER_IS_BETTER, NONE,
            "number of vLLM-successful requests", a -> OptionalDouble.of(a.vllm().completed()))),
    FAILED(vllm("failed", "failed", "Failed requests:", REQUESTS, LOWER_IS_BETTER, NONE,
            "requests - vllm_completed: failed outcomes plus successful streams without any choice-bearing event",
            a -> OptionalDouble.of(a.vllmFailed()))
            .gated().shown(RUN_HEADLINE, 10).console("Failed requests:")),
    REQUEST_GOODPUT(vllm("request_goodput", "request_goodput", "Request goodput (req/s):", REQUESTS_PER_SECOND,
            HIGHER_IS_BETTER, OUTPUT_LENGTH,
            "good / D; a vLLM-successful request is good when slo_ms / 1000 >= value for every given SLO"
                    + " (vLLM ttft, tpot with 0.0 for output_len_i <= 1, e2el); absent without SLOs",
            Aggregation::requestGoodput)
            .console("Request goodput (req/s):")),
    VLLM_PEAK_OUTPUT_THROUGHPUT(vllm("vllm_peak_output_throughput", "max_output_tokens_per_s",
            "Peak output token throughput (tok/s):", TOKENS_PER_SECOND, HIGHER_IS_BETTER, TOKEN_EVENTS,
            "as peak_output_throughput, over vLLM-successful requests with vLLM's ttft, ITL and e2el"
                    + " (every choice-bearing event counts, empty text included)",
            a -> OptionalDouble.of(PeakBuckets.peakTokenEvents(a.vllm())))),
    VLLM_PEAK_CONCURRENT_REQUESTS(vllm("vllm_peak_concurrent_requests", "max_concurrent_requests",
            "Peak concurrent requests:", REQUESTS, INFORMATIONAL, NONE,
            "peak running count over half-open [start, start + e2el) of vLLM-successful requests,"
                    + " departures before arrivals at equal times (exact sweep line)",
            a -> OptionalDouble.of(PeakBuckets.peakConcurrentSweep(a.vllm())))
            .console("Peak concurrent requests (exact sweep):")),
    VLLM_MEAN_TTFT_MS(stat(MEAN, VLLM_TTFT, PRINTED_AND_WRITTEN).console("Mean TTFT, first choices event (ms):")),
    VLLM_MEDIAN_TTFT_MS(stat(MEDIAN, VLLM_TTFT, PRINTED_AND_WRITTEN)),
    VLLM_STD_TTFT_MS(stat(STD, VLLM_TTFT, WRITTEN)),
    VLLM_P90_TTFT_MS(stat(P90, VLLM_TTFT, PRINTED_AND_WRITTEN)),
    VLLM_P95_TTFT_MS(stat(P95, VLLM_TTFT, PRINTED_AND_WRITTEN)),
    VLLM_P99_TTFT_MS(stat(P99, VLLM_TTFT, PRINTED_AND_WRITTEN).console("P99 TTFT, first choices event (ms):")),
    VLLM_MEAN_TPOT_MS(stat(MEAN, VLLM_TPOT, PRINTED_AND_WRITTEN)),
    VLLM_MEDIAN_TPOT_MS(stat(MEDIAN, VLLM_TPOT, PRINTED_AND_WRITTEN)),
    VLLM_STD_TPOT_MS(stat(STD, VLLM_TPOT, WRITTEN)),
    VLLM_P90_TPOT_MS(stat(P90, VLLM_TPOT, PRINTED_AND_WRITTEN)),
    VLLM_P95_TPOT_MS(stat(P95, VLLM_TPOT, PRINTED_AND_WRITTEN)),
    VLLM_P99_TPOT_MS(stat(P99, VLLM_TPOT, PRINTED_AND_WRITTEN)),
    VLLM_MEAN_ITL_MS(stat(MEAN, VLLM_ITL, PRINTED_AND_WRITTEN)),
    VLLM_MEDIAN_ITL_MS(stat(MEDIAN, VLLM_ITL, PRINTED_AND_WRITTEN)),
    VLLM_STD_ITL_MS(stat(STD, VLLM_ITL, WRITTEN)),
    VLLM_P90_ITL_MS(stat(P90, VLLM_ITL, PRINTED_AND_WRITTEN)),
    VLLM_P95_ITL_MS(stat(P95, VLLM_ITL, PRINTED_AND_WRITTEN)),
    VLLM_P99_ITL_MS(stat(P99, VLLM_ITL, PRINTED_AND_WRITTEN)),
    VLLM_MEAN_E2EL_MS(stat(MEAN, VLLM_E2EL, PRINTED_AND_WRITTEN).console("Mean E2EL, last token event (ms):")),
    VLLM_MEDIAN_E2EL_MS(stat(MEDIAN, VLLM_E2EL, PRINTED_AND_WRITTEN)),
    VLLM_STD_E2EL_MS(stat(STD, VLLM_E2EL, WRITTEN)),
    VLLM_P90_E2EL_MS(stat(P90, VLLM_E2EL, PRINTED_AND_WRITTEN)),
    VLLM_P95_E2EL_MS(stat(P95, VLLM_E2EL, PRINTED_AND_WRITTEN)),
    VLLM_P99_E2EL_MS(stat(P99, VLLM_E2EL, PRINTED_AND_WRITTEN)),

    // ---- servebench diagnostics, in the order the console prints them ----
    // The server's own input count, whatever --input-token-source says: with text prompts the dataset's is a guess.
    SERVER_INPUT_TOKENS(servebench("server_input_tokens", TOKENS, INFORMATIONAL, USAGE_PROMPT_TOKENS,
            "sum of usage.prompt_tokens over successful requests (dataset prompt_len where a response carried no"
                    + " usage: prompt_usage_missing)", a -> a.sglang().totalUsagePromptTokens())
            .console("Server input tokens (usage):")),
    SERVER_INPUT_THROUGHPUT(servebench("server_input_throughput", TOKENS_PER_SECOND, HIGHER_IS_BETTER,
            USAGE_PROMPT_TOKENS, "server_input_tokens / D", a -> a.perSecond(a.sglang().totalUsagePromptTokens()))
            .console("Server input throughput (tok/s):")),
    SERVER_TOTAL_THROUGHPUT(servebench("server_total_throughput", TOKENS_PER_SECOND, HIGHER_IS_BETTER,
            USAGE_PROMPT_TOKENS_AND_OUTPUT_LENGTH, "(server_input_tokens + total_output_tokens) / D",
            a -> a.perSecond(a.sglang().totalUsagePromptTokens() + a.sglang().totalOutputLen()))
            .console("Server total throughput (tok/s):")),
    PROMPT_TOKEN_MISMATCHES(servebench("prompt_token_mismatches", REQUESTS, INFORMATIONAL, USAGE_AND_PROMPT_LENGTH,
            "successful requests whose usage.prompt_tokens differs from the dataset prompt_len (a BOS the server"
                    + " adds counts)", a -> a.inputTokens().mismatches())
            .console("Usage vs dataset prompt mismatches:")),
    PROMPT_USAGE_MISSING(servebench("prompt_usage_missing", REQUESTS, INFORMATIONAL, USAGE_AND_PROMPT_LENGTH,
            "successful requests without usage.prompt_tokens; their server_input_tokens is the dataset prompt_len",
            a -> a.inputTokens().usageMissing())),
    USAGE_MISSING(servebench("usage_missing", REQUESTS, INFORMATIONAL, USAGE_AND_CHUNKS,
            "successful requests without a server usage object", Aggregation::usageMissing)
            .console("Requests without server usage:")),
    TOKEN_COUNT_MISMATCHES(servebench("token_count_mismatches", REQUESTS, INFORMATIONAL, USAGE_AND_CHUNKS,
            "successful requests whose usage.completion_tokens differs from the chunk-counted tokens",
            Aggregation::tokenCountMismatches)
            .console("Usage vs chunk-count mismatches:")),
    RETOKENIZED_MISMATCHES(servebenchWhenMeasured("retokenized_mismatches", REQUESTS, INFORMATIONAL,
            RETOKENIZED_AND_USAGE, "successful requests with server usage whose usage.completion_tokens differs from"
                    + " the retokenized count; absent without a client tokenizer", a -> a.retokenized().mismatches())
            .console("Usage vs retokenized mismatches:")),
    MEAN_QUEUE_TIME_MS(stat(MEAN, QUEUE_TIME, NOT_REPORTED).console("Mean client queue time (ms):")),
    MEDIAN_QUEUE_TIME_MS(stat(MEDIAN, QUEUE_TIME, NOT_REPORTED)),
    P99_QUEUE_TIME_MS(stat(P99, QUEUE_TIME, NOT_REPORTED).console("P99 client queue time (ms):")),
    MAX_QUEUE_TIME_MS(stat(MAX, QUEUE_TIME, NOT_REPORTED)),
    MEAN_DISPATCH_LAG_MS(stat(MEAN, DISPATCH_LAG, NOT_REPORTED)),
    P99_DISPATCH_LAG_MS(stat(P99, DISPATCH_LAG, NOT_REPORTED).console("P99 client dispatch lag (ms):")),
    MAX_DISPATCH_LAG_MS(stat(MAX, DISPATCH_LAG, NOT_REPORTED));

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

    /** Whether the regression gate judges this metric; every other metric is compared and reported only. */
    public boolean gated() {
        return definition.use().gated();
    }

    /** Whether {@code view} shows this metric. */
    public boolean shownIn(View view) {
        return definition.use().views().containsKey(view);
    }

    /** The metrics {@code view} shows, by their declared rank there, then in enum order. */
    public static List<MetricId> inView(View view) {
        return Arrays.stream(values()).filter(m -> m.shownIn(view))
                .sorted(Comparator.comparingInt(m -> m.definition.use().views().get(view))).toList();
    }

    /**
     * The label of this metric's line on the per-point console: SGLang's label where SGLang prints it (SGLang's
     * block), else the declared one (the vLLM or servebench block); empty when the console does not show it.
     */
    public Optional<String> consoleLabel() {
        return Optional.ofNullable(definition.sglangLabel()).or(() -> Optional.ofNullable(definition.use().consoleLabel()));
    }

    /** Whether values are whole numbers (counts of requests or tokens), printed and written without decimals. */
    public boolean wholeNumber() {
        return (unit() == Unit.REQUESTS || unit() == Unit.TOKENS) && !definition.use().fractional();
    }

    /** The percentile ranks metrics use, so a sample can select all its order statistics in one pass. */
    static double[] percentileRanks() {
        return Arrays.stream(values()).flatMap(m -> m.statistic().stream())
                .filter(s -> s.kind() == Statistic.Kind.PERCENTILE).mapToDouble(Statistic::rank).distinct().sorted()
                .toArray();
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
