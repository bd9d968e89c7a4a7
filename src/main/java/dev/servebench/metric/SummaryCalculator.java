package dev.servebench.metric;

import dev.servebench.record.FailureKind;
import dev.servebench.record.Outcome;
import dev.servebench.record.RequestRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Turns the records of one load point into a {@link ServingSummary}. Pure: no clock, no I/O.
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
        if (benchmarkDurationNanos < 0) {
            throw new IllegalArgumentException("benchmarkDurationNanos (" + benchmarkDurationNanos + ") must be >= 0");
        }
        List<RequestRecord> ordered = inDispatchOrder(records);
        TokenSource source = options.tokenSource();

        List<RequestRecord> successes = new ArrayList<>();
        List<RequestRecord> vllmSuccesses = new ArrayList<>();
        Map<FailureKind, Integer> failures = new EnumMap<>(FailureKind.class);
        int fallbacks = 0;
        int mismatches = 0;
        int usageMissing = 0;
        int withoutEvent = 0;
        int withoutTokenEvent = 0;
        for (RequestRecord record : ordered) {
            if (record.outcome() instanceof Outcome.Failure failure) {
                failures.merge(failure.kind(), 1, Integer::sum);
                continue;
            }
            successes.add(record);
            // vLLM marks a stream that never produced a TTFT as failed.
            if (record.vllmTtftSeconds().isPresent()) {
                vllmSuccesses.add(record);
            } else {
                withoutEvent++;
            }
            if (record.chunks().firstTokenEvent() < 0) {
                withoutTokenEvent++;
            }
            if (source.fellBack(record)) {
                fallbacks++;
            }
            if (record.usage().isEmpty()) {
                usageMissing++;
            } else if (record.usage().get().completionTokens() != record.chunkOutputTokens()) {
                mismatches++;
            }
        }

        double[] queue = new double[successes.size()];
        for (int i = 0; i < queue.length; i++) {
            queue[i] = RequestRecord.seconds(successes.get(i).queueNanos());
        }
        double[] dispatchLag = new double[ordered.size()];
        for (int i = 0; i < dispatchLag.length; i++) {
            dispatchLag[i] = RequestRecord.seconds(ordered.get(i).dispatchLagNanos());
        }
        Aggregation aggregation = new Aggregation(RequestRecord.seconds(benchmarkDurationNanos), ordered.size(),
                Population.sglang(successes, source), Population.vllm(vllmSuccesses, source), new Sample(queue),
                new Sample(dispatchLag), options.goodput(), mismatches, usageMissing);
        Map<MetricId, Double> values = new EnumMap<>(MetricId.class);
        for (MetricId id : MetricId.values()) {
            id.compute(aggregation).ifPresent(value -> values.put(id, value));
        }

        List<String> notes = new ArrayList<>();
        if (ordered.isEmpty()) {
            notes.add("no requests were recorded: every metric is 0");
        } else if (successes.isEmpty()) {
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
        return new ServingSummary(ordered.size(), benchmarkDurationNanos, source, values, failures, fallbacks,
                mismatches, usageMissing, withoutEvent, notes);
    }

    private static List<RequestRecord> inDispatchOrder(List<RequestRecord> records) {
        List<RequestRecord> ordered = new ArrayList<>(records.size());
        for (RequestRecord record : records) {
            ordered.add(Objects.requireNonNull(record, "records contains null"));
        }
        ordered.sort(Comparator.comparingInt(RequestRecord::index));
        for (int i = 1; i < ordered.size(); i++) {
            if (ordered.get(i).index() == ordered.get(i - 1).index()) {
                throw new IllegalArgumentException("records contain index " + ordered.get(i).index() + " twice");
            }
        }
        return ordered;
    }
}
