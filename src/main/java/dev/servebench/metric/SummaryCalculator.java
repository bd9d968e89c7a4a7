package dev.servebench.metric;

import dev.servebench.record.FailureKind;
import dev.servebench.record.RecordCursor;
import dev.servebench.record.RecordStore;
import dev.servebench.record.RequestRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns the records of one load point into a {@link ServingSummary}. Pure: no clock, and no I/O of its own
 * (a {@link RecordStore} may read spilled events back from its file).
 *
 * <p>Memory while computing: about 160 bytes per request (dispatch order, both tools' per-request lists and
 * the copy sorted for their order statistics: 160 MB for a million requests) plus a few MB for selecting
 * order statistics of the per-event lists, which are never held: each statistic re-derives them from the
 * store in one to five passes.
 *
 * <p>Both tools' numbers come from the same records: SGLang's population is every successful request,
 * vLLM's additionally needs one choice-bearing event. Lists are built in dispatch order ({@code index}),
 * because the pairwise sum depends on order.
 */
public final class SummaryCalculator {

    private SummaryCalculator() {}

    /**
     * @param records                every measured request of the load point, in any order (sorted by index)
     * @param benchmarkDurationNanos D: from benchmark start to the end of the last response, >= 0
     * @param options                token source and goodput objectives
     */
    public static ServingSummary compute(List<RequestRecord> records, long benchmarkDurationNanos,
            MetricOptions options) {
        Objects.requireNonNull(records, "records");
        Objects.requireNonNull(options, "options");
        checkDuration(benchmarkDurationNanos);
        try (RecordStore store = RecordStore.of(records)) {
            return compute(store, benchmarkDurationNanos, options);
        }
    }

    /**
     * The same summary from a record store, reading it request by request: memory grows by a few doubles
     * per request and never with the number of stream events.
     *
     * @param records                every measured request of the load point, stored in any order
     * @param benchmarkDurationNanos D: from benchmark start to the end of the last response, >= 0
     * @param options                token source and goodput objectives
     */
    public static ServingSummary compute(RecordStore records, long benchmarkDurationNanos, MetricOptions options) {
        return compute(records, benchmarkDurationNanos, options, RankSelect.Limits.DEFAULT);
    }

    /** With explicit selection limits, so tests can drive every selection path with small runs. */
    static ServingSummary compute(RecordStore records, long benchmarkDurationNanos, MetricOptions options,
            RankSelect.Limits limits) {
        Objects.requireNonNull(records, "records");
        Objects.requireNonNull(options, "options");
        checkDuration(benchmarkDurationNanos);
        int[] ordered = records.slotsInIndexOrder();
        TokenSource source = options.tokenSource();

        int[] successes = new int[ordered.length];
        int[] vllmSuccesses = new int[ordered.length];
        int successCount = 0;
        int vllmCount = 0;
        double[] queue = new double[ordered.length];
        double[] dispatchLag = new double[ordered.length];
        Map<FailureKind, Integer> failures = new EnumMap<>(FailureKind.class);
        int fallbacks = 0;
        int mismatches = 0;
        int usageMissing = 0;
        int promptMismatches = 0;
        int withoutEvent = 0;
        int withoutTokenEvent = 0;
        long retokenizedTotal = 0;
        int retokenizedMissing = 0;
        int retokenizedMismatches = 0;
        boolean retokenized = options.retokenizedOutput();
        RecordCursor record = records.cursor();
        for (int i = 0; i < ordered.length; i++) {
            record.moveTo(ordered[i]);
            dispatchLag[i] = RequestRecord.seconds(record.dispatchLagNanos());
            if (!record.succeeded()) {
                failures.merge(record.failureKind(), 1, Integer::sum);
                continue;
            }
            queue[successCount] = RequestRecord.seconds(record.queueNanos());
            successes[successCount++] = ordered[i];
            // vLLM marks a stream that never produced a TTFT as failed.
            if (record.size() > 0) {
                vllmSuccesses[vllmCount++] = ordered[i];
            } else {
                withoutEvent++;
            }
            if (record.firstTokenEvent() < 0) {
                withoutTokenEvent++;
            }
            if (source.fellBack(record)) {
                fallbacks++;
            }
            if (retokenized && !record.hasRetokenizedOutputLen()) {
                retokenizedMissing++;
            } else if (retokenized) {
                retokenizedTotal += record.retokenizedOutputLen();
                if (record.hasUsage() && record.usageCompletionTokens() != record.retokenizedOutputLen()) {
                    retokenizedMismatches++;
                }
            }
            if (!record.hasUsage()) {
                usageMissing++;
            } else {
                if (record.usageCompletionTokens() != record.totalTokens()) {
                    mismatches++;
                }
                if (record.usagePromptTokens() != record.promptLen()) {
                    promptMismatches++;
                }
            }
        }

        // Usage is one object: a response without it lacks prompt_tokens too.
        InputTokens inputTokens = new InputTokens(options.inputTokenSource(), options.promptLengths(), successCount,
                usageMissing, promptMismatches);
        RetokenizedOutput retokenizedOutput = retokenized
                ? new RetokenizedOutput(true, successCount, retokenizedMissing, retokenizedTotal, retokenizedMismatches)
                : RetokenizedOutput.notMeasured();
        Aggregation aggregation = new Aggregation(RequestRecord.seconds(benchmarkDurationNanos), ordered.length,
                new Population(records, Arrays.copyOf(successes, successCount), Population.Tool.SGLANG, source, limits),
                new Population(records, Arrays.copyOf(vllmSuccesses, vllmCount), Population.Tool.VLLM, source, limits),
                new Sample(Arrays.copyOf(queue, successCount), limits), new Sample(dispatchLag, limits), options.goodput(),
                mismatches, usageMissing, inputTokens, retokenizedOutput);
        Map<MetricId, Double> values = new EnumMap<>(MetricId.class);
        for (MetricId id : MetricId.values()) {
            id.compute(aggregation).ifPresent(value -> values.put(id, value));
        }

        List<String> notes = new ArrayList<>();
        if (ordered.length == 0) {
            notes.add("no requests were recorded: every metric is 0");
        } else if (successCount == 0) {
            notes.add("every request failed: latency statistics are 0 (SGLang would crash here)");
        }
        if (benchmarkDurationNanos == 0) {
            notes.add("benchmark duration is 0: throughputs, concurrency and goodput are reported as 0"
                    + " (SGLang and vLLM would divide by zero)");
        }
        if (withoutEvent > 0) {
            notes.add(withoutEvent + " successful request(s) had no choice-bearing event: SGLang counts them as"
                    + " completed, vLLM as failed");
        }
        if (withoutTokenEvent > 0) {
            notes.add(withoutTokenEvent + " successful request(s) had no event with text: SGLang records TTFT 0"
                    + " for them and counts a token event at their start in the peak output throughput");
        }
        if (fallbacks > 0) {
            notes.add(fallbacks + " successful request(s) had no server usage: their output length was counted"
                    + " from the stream's chunks");
        }
        if (mismatches > 0) {
            notes.add(mismatches + " successful request(s) reported usage.completion_tokens different from the"
                    + " chunk-counted tokens");
        }
        notes.addAll(inputTokens.notes());
        notes.addAll(retokenizedOutput.notes());
        return new ServingSummary(ordered.length, benchmarkDurationNanos, source, values, failures, fallbacks,
                mismatches, usageMissing, withoutEvent, notes, inputTokens, retokenizedOutput);
    }

    private static void checkDuration(long benchmarkDurationNanos) {
        if (benchmarkDurationNanos < 0) {
            throw new IllegalArgumentException("benchmarkDurationNanos (" + benchmarkDurationNanos + ") must be >= 0");
        }
    }
}
