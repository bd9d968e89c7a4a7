package dev.servebench.metric;

import dev.servebench.record.FailureKind;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Result of {@link SummaryCalculator#compute}. Immutable.
 *
 * @param requests               number of records summarised
 * @param benchmarkDurationNanos D in nanoseconds
 * @param tokenSource            where output_len_i came from
 * @param values                 every applicable metric; absent keys are not applicable to this run
 * @param failuresByKind         failed outcomes per kind, every kind present (0 when none)
 * @param tokenSourceFallbacks   successful requests whose output length fell back to the chunk count
 * @param tokenCountMismatches   successful requests whose usage.completion_tokens differs from the chunk count
 * @param usageMissing           successful requests without server usage
 * @param successesWithoutEvent  successful requests without any choice-bearing event (vLLM fails them)
 * @param notes                  human-readable caveats about this run's numbers
 * @param inputTokens            which input count the input metrics used and which counts are estimates
 * @param retokenized            whether and how completely a client tokenizer re-counted the generated text
 */
public record ServingSummary(
        int requests,
        long benchmarkDurationNanos,
        TokenSource tokenSource,
        Map<MetricId, Double> values,
        Map<FailureKind, Integer> failuresByKind,
        int tokenSourceFallbacks,
        int tokenCountMismatches,
        int usageMissing,
        int successesWithoutEvent,
        List<String> notes,
        InputTokens inputTokens,
        RetokenizedOutput retokenized) {

    public ServingSummary {
        nonNegative("requests", requests);
        if (benchmarkDurationNanos < 0) {
            throw new IllegalArgumentException("benchmarkDurationNanos (" + benchmarkDurationNanos + ") must be >= 0");
        }
        Objects.requireNonNull(tokenSource, "tokenSource");
        EnumMap<MetricId, Double> metrics = new EnumMap<>(MetricId.class);
        Objects.requireNonNull(values, "values").forEach((id, value) -> {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("values[" + id.id() + "] (" + value + ") must be finite");
            }
            metrics.put(id, value);
        });
        values = Collections.unmodifiableMap(metrics);
        EnumMap<FailureKind, Integer> failures = new EnumMap<>(FailureKind.class);
        for (FailureKind kind : FailureKind.values()) {
            failures.put(kind, 0);
        }
        Objects.requireNonNull(failuresByKind, "failuresByKind").forEach((kind, count) -> {
            nonNegative("failuresByKind[" + kind + "]", count);
            failures.put(kind, count);
        });
        failuresByKind = Collections.unmodifiableMap(failures);
        nonNegative("tokenSourceFallbacks", tokenSourceFallbacks);
        nonNegative("tokenCountMismatches", tokenCountMismatches);
        nonNegative("usageMissing", usageMissing);
        nonNegative("successesWithoutEvent", successesWithoutEvent);
        notes = List.copyOf(Objects.requireNonNull(notes, "notes"));
        Objects.requireNonNull(inputTokens, "inputTokens");
        Objects.requireNonNull(retokenized, "retokenized");
    }

    /** Without a client tokenizer re-counting the output. */
    public ServingSummary(int requests, long benchmarkDurationNanos, TokenSource tokenSource, Map<MetricId, Double> values,
            Map<FailureKind, Integer> failuresByKind, int tokenSourceFallbacks, int tokenCountMismatches,
            int usageMissing, int successesWithoutEvent, List<String> notes, InputTokens inputTokens) {
        this(requests, benchmarkDurationNanos, tokenSource, values, failuresByKind, tokenSourceFallbacks,
                tokenCountMismatches, usageMissing, successesWithoutEvent, notes, inputTokens,
                RetokenizedOutput.notMeasured());
    }

    /** A summary without input-token facts (no requests to count them over). */
    public ServingSummary(int requests, long benchmarkDurationNanos, TokenSource tokenSource, Map<MetricId, Double> values,
            Map<FailureKind, Integer> failuresByKind, int tokenSourceFallbacks, int tokenCountMismatches,
            int usageMissing, int successesWithoutEvent, List<String> notes) {
        this(requests, benchmarkDurationNanos, tokenSource, values, failuresByKind, tokenSourceFallbacks,
                tokenCountMismatches, usageMissing, successesWithoutEvent, notes, InputTokens.none());
    }

    /** The token counts {@code id} rested on in this run (input metrics follow the input token source). */
    public TokenBasis tokenBasis(MetricId id) {
        return id.tokenBasis(inputTokens.source());
    }

    /** {@code id}'s formula as computed in this run. */
    public String formula(MetricId id) {
        return id.formula(inputTokens.source());
    }

    /** Why {@code id}'s value is an estimate in this run (its input count is), or empty when it is not. */
    public Optional<String> estimate(MetricId id) {
        return inputTokens.estimate(tokenBasis(id));
    }

    /** The metric's value, or empty when it does not apply to this run (e.g. goodput without SLOs). */
    public OptionalDouble value(MetricId id) {
        Double value = values.get(id);
        return value == null ? OptionalDouble.empty() : OptionalDouble.of(value);
    }

    /** Number of failed outcomes of one kind. */
    public int failures(FailureKind kind) {
        return failuresByKind.get(kind);
    }

    /** Number of failed outcomes of any kind (SGLang's definition of failure). */
    public int failedOutcomes() {
        return failuresByKind.values().stream().mapToInt(Integer::intValue).sum();
    }

    private static void nonNegative(String field, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(field + " (" + value + ") must be >= 0");
        }
    }
}
