package dev.servebench.metric;

import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Everything {@link MetricId} says about one metric. String fields are null where the tool has no such
 * name; {@code statistic} and {@code series} are null for metrics that are not a statistic of a list;
 * {@code usageBasis} and {@code usageFormula} are null unless the metric follows the run's
 * {@link InputTokenSource}, and then say what it counts under {@link InputTokenSource#SERVER_USAGE}
 * ({@code tokenBasis} and {@code formula} are for the default, {@link InputTokenSource#DATASET}).
 */
record MetricDefinition(
        String id,
        String sglangKey,
        String sglangLabel,
        String vllmKey,
        String vllmLabel,
        Unit unit,
        Direction direction,
        Origin origin,
        TokenBasis tokenBasis,
        String formula,
        Statistic statistic,
        LatencySeries series,
        Function<Aggregation, OptionalDouble> computation,
        TokenBasis usageBasis,
        String usageFormula) {

    MetricDefinition {
        if ((usageBasis == null) != (usageFormula == null)) {
            throw new IllegalArgumentException(id + ": usageBasis and usageFormula go together");
        }
    }

    /** The same metric, following the input token source: under server usage it counts what is given here. */
    MetricDefinition underServerUsage(TokenBasis basis, String formula) {
        return new MetricDefinition(id, sglangKey, sglangLabel, vllmKey, vllmLabel, unit, direction, origin, tokenBasis,
                this.formula, statistic, series, computation, basis, formula);
    }

    TokenBasis tokenBasis(InputTokenSource source) {
        return source == InputTokenSource.SERVER_USAGE && usageBasis != null ? usageBasis : tokenBasis;
    }

    String formula(InputTokenSource source) {
        return source == InputTokenSource.SERVER_USAGE && usageFormula != null ? usageFormula : formula;
    }

    /** A metric SGLang reports under the same id as its JSON key. */
    static MetricDefinition sglang(String id, String label, Unit unit, Direction direction, TokenBasis basis,
            String formula, ToDoubleFunction<Aggregation> computation) {
        return sglang(id, id, label, unit, direction, basis, formula, computation);
    }

    static MetricDefinition sglang(String id, String key, String label, Unit unit, Direction direction,
            TokenBasis basis, String formula, ToDoubleFunction<Aggregation> computation) {
        return new MetricDefinition(id, key, label, null, null, unit, direction, Origin.SGLANG, basis, formula,
                null, null, always(computation), null, null);
    }

    /** An SGLang metric that only some runs measure (absent otherwise); key and label may be null. */
    static MetricDefinition sglangWhenMeasured(String id, String key, String label, Unit unit, Direction direction,
            TokenBasis basis, String formula, Function<Aggregation, OptionalDouble> computation) {
        return new MetricDefinition(id, key, label, null, null, unit, direction, Origin.SGLANG, basis, formula,
                null, null, computation, null, null);
    }

    static MetricDefinition vllm(String id, String key, String label, Unit unit, Direction direction,
            TokenBasis basis, String formula, Function<Aggregation, OptionalDouble> computation) {
        return new MetricDefinition(id, null, null, key, label, unit, direction, Origin.VLLM, basis, formula,
                null, null, computation, null, null);
    }

    static MetricDefinition servebench(String id, Unit unit, Direction direction, TokenBasis basis, String formula,
            ToDoubleFunction<Aggregation> computation) {
        return new MetricDefinition(id, null, null, null, null, unit, direction, Origin.SERVEBENCH, basis, formula,
                null, null, always(computation), null, null);
    }

    /** A servebench diagnostic that only some runs measure (absent otherwise). */
    static MetricDefinition servebenchWhenMeasured(String id, Unit unit, Direction direction, TokenBasis basis,
            String formula, Function<Aggregation, OptionalDouble> computation) {
        return new MetricDefinition(id, null, null, null, null, unit, direction, Origin.SERVEBENCH, basis, formula,
                null, null, computation, null, null);
    }

    /**
     * {@code stat(series) * 1000}: both tools compute statistics in seconds and scale the result, which is
     * not the same double as the statistic of values scaled first.
     */
    static MetricDefinition stat(Statistic statistic, LatencySeries series) {
        Origin origin = series.origin();
        String plainId = statistic.idPrefix() + "_" + series.stem() + "_ms";
        String label = statistic.labelWord() == null || series.labelName() == null
                ? null
                : statistic.labelWord() + " " + series.labelName() + " (ms):";
        // SGLang prints "Max ITL (ms):" but does not write max_itl_ms into its result file.
        boolean written = statistic != Statistic.MAX;
        String formula = statistic.formulaName() + " of " + series.stem() + "_i (s) * 1000; " + series.definition()
                + "; empty list -> 0";
        return new MetricDefinition(
                origin == Origin.VLLM ? "vllm_" + plainId : plainId,
                origin == Origin.SGLANG && written ? plainId : null,
                origin == Origin.SGLANG ? label : null,
                origin == Origin.VLLM && written ? plainId : null,
                origin == Origin.VLLM ? label : null,
                Unit.MILLISECONDS, Direction.LOWER_IS_BETTER, origin, series.tokenBasis(), formula,
                statistic, series,
                a -> OptionalDouble.of(statistic.apply(a.series(series)) * 1000), null, null);
    }

    private static Function<Aggregation, OptionalDouble> always(ToDoubleFunction<Aggregation> computation) {
        return a -> OptionalDouble.of(computation.applyAsDouble(a));
    }
}
