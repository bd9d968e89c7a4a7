package dev.servebench.metric;

import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * Everything {@link MetricId} says about one metric. String fields are null where the tool has no such
 * name; {@code statistic} and {@code series} are null for metrics that are not a statistic of a list;
 * {@code usageBasis} and {@code usageFormula} are null unless the metric follows the run's
 * {@link InputTokenSource}, and then say what it counts under {@link InputTokenSource#SERVER_USAGE}
 * ({@code tokenBasis} and {@code formula} are for the default, {@link InputTokenSource#DATASET}).
 * {@code use} says where the metric is shown and whether it decides the gate.
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
        String usageFormula,
        Use use) {

    /**
     * Where a metric is shown besides the files that list every metric, and how it is judged.
     *
     * @param views        each view showing the metric, with the metric's rank in it (views sort by rank)
     * @param consoleLabel the per-point console's label, for a metric no reference tool prints; null: not shown
     * @param gated        whether the regression gate judges it (the others are compared and reported only)
     * @param fractional   a count unit whose values are not whole numbers (a mean number of requests)
     */
    record Use(Map<View, Integer> views, String consoleLabel, boolean gated, boolean fractional) {
        static final Use NONE = new Use(Map.of(), null, false, false);

        Use {
            views = Map.copyOf(views);
        }
    }

    MetricDefinition {
        if ((usageBasis == null) != (usageFormula == null)) {
            throw new IllegalArgumentException(id + ": usageBasis and usageFormula go together");
        }
        if (use.gated() && direction == Direction.INFORMATIONAL) {
            throw new IllegalArgumentException(id + ": an informational metric cannot be gated");
        }
        if (use.consoleLabel() != null && (sglangLabel != null || !use.consoleLabel().endsWith(":"))) {
            throw new IllegalArgumentException(id + ": a console label ends with ':' and is only for metrics SGLang"
                    + " does not print (got '" + use.consoleLabel() + "')");
        }
        if (use.views().containsKey(View.RUN_HEADLINE) && sglangLabel == null && vllmLabel == null) {
            throw new IllegalArgumentException(id + ": the run headline shows a reference tool's label; it has none");
        }
        if (use.views().containsKey(View.HTML_LATENCY_TABLE) && series == null) {
            throw new IllegalArgumentException(id + ": the latency table shows statistics of a latency series");
        }
        if (use.views().containsKey(View.THROUGHPUT_TABLE) && unit != Unit.TOKENS_PER_SECOND) {
            throw new IllegalArgumentException(id + ": the throughput table shows token throughputs (tok/s)");
        }
        if (use.fractional() && unit != Unit.REQUESTS && unit != Unit.TOKENS) {
            throw new IllegalArgumentException(id + ": only a count unit can be declared fractional");
        }
    }

    /** The same metric, following the input token source: under server usage it counts what is given here. */
    MetricDefinition underServerUsage(TokenBasis basis, String formula) {
        return new MetricDefinition(id, sglangKey, sglangLabel, vllmKey, vllmLabel, unit, direction, origin, tokenBasis,
                this.formula, statistic, series, computation, basis, formula, use);
    }

    /** The same metric, judged by the regression gate. */
    MetricDefinition gated() {
        return with(new Use(use.views(), use.consoleLabel(), true, use.fractional()));
    }

    /** The same metric, shown in {@code view}; metrics of equal rank keep the enum's order. */
    MetricDefinition shown(View view) {
        return shown(view, 0);
    }

    /** The same metric, shown in {@code view} at {@code rank} (lower ranks first). */
    MetricDefinition shown(View view, int rank) {
        Map<View, Integer> views = new EnumMap<>(View.class);
        views.putAll(use.views());
        if (views.put(view, rank) != null) {
            throw new IllegalArgumentException(id + " is shown in " + view + " twice");
        }
        return with(new Use(views, use.consoleLabel(), use.gated(), use.fractional()));
    }

    /** The same metric, on the per-point console under {@code label} (for metrics SGLang does not print). */
    MetricDefinition console(String label) {
        return with(new Use(use.views(), label, use.gated(), use.fractional()));
    }

    /** The same metric, a count unit with values that need not be whole. */
    MetricDefinition fractional() {
        return with(new Use(use.views(), use.consoleLabel(), use.gated(), true));
    }

    private MetricDefinition with(Use changed) {
        return new MetricDefinition(id, sglangKey, sglangLabel, vllmKey, vllmLabel, unit, direction, origin, tokenBasis,
                formula, statistic, series, computation, usageBasis, usageFormula, changed);
    }

    TokenBasis tokenBasis(InputTokenSource source) {
        return source == InputTokenSource.SERVER_USAGE && usageBasis != null ? usageBasis : tokenBasis;
    }

    String formula(InputTokenSource source) {
        return source == InputTokenSource.SERVER_USAGE && usageFormula != null ? usageFormula : formula;
    }

    /** A metric SGLang prints and writes under the same id as its JSON key. */
    static MetricDefinition sglang(String id, String label, Unit unit, Direction direction, TokenBasis basis,
            String formula, ToDoubleFunction<Aggregation> computation) {
        return sglang(id, id, label, unit, direction, basis, formula, computation);
    }

    /** A metric SGLang prints under {@code label} and writes under {@code key}. */
    static MetricDefinition sglang(String id, String key, String label, Unit unit, Direction direction,
            TokenBasis basis, String formula, ToDoubleFunction<Aggregation> computation) {
        return new MetricDefinition(id, key, label, null, null, unit, direction, Origin.SGLANG, basis, formula,
                null, null, always(computation), null, null, Use.NONE);
    }

    /** An SGLang metric that only some runs measure (absent otherwise); key and label may be null. */
    static MetricDefinition sglangWhenMeasured(String id, String key, String label, Unit unit, Direction direction,
            TokenBasis basis, String formula, Function<Aggregation, OptionalDouble> computation) {
        return new MetricDefinition(id, key, label, null, null, unit, direction, Origin.SGLANG, basis, formula,
                null, null, computation, null, null, Use.NONE);
    }

    /** A metric vLLM prints under {@code label} and writes under {@code key}. */
    static MetricDefinition vllm(String id, String key, String label, Unit unit, Direction direction,
            TokenBasis basis, String formula, Function<Aggregation, OptionalDouble> computation) {
        return new MetricDefinition(id, null, null, key, label, unit, direction, Origin.VLLM, basis, formula,
                null, null, computation, null, null, Use.NONE);
    }

    static MetricDefinition servebench(String id, Unit unit, Direction direction, TokenBasis basis, String formula,
            ToDoubleFunction<Aggregation> computation) {
        return new MetricDefinition(id, null, null, null, null, unit, direction, Origin.SERVEBENCH, basis, formula,
                null, null, always(computation), null, null, Use.NONE);
    }

    /** A servebench diagnostic that only some runs measure (absent otherwise). */
    static MetricDefinition servebenchWhenMeasured(String id, Unit unit, Direction direction, TokenBasis basis,
            String formula, Function<Aggregation, OptionalDouble> computation) {
        return new MetricDefinition(id, null, null, null, null, unit, direction, Origin.SERVEBENCH, basis, formula,
                null, null, computation, null, null, Use.NONE);
    }

    /**
     * {@code stat(series) * 1000}: both tools compute statistics in seconds and scale the result, which is
     * not the same double as the statistic of values scaled first. {@code reported} says what the series'
     * tool does with it: its key and console label exist only where it writes or prints the metric.
     */
    static MetricDefinition stat(Statistic statistic, LatencySeries series, Reported reported) {
        Origin origin = series.origin();
        String plainId = statistic.idPrefix() + "_" + series.stem() + "_ms";
        if (origin == Origin.SERVEBENCH && reported != Reported.NOT_REPORTED) {
            throw new IllegalArgumentException(plainId + ": no reference tool reports servebench's own series");
        }
        String label = reported.printed() ? statistic.labelWord() + " " + series.labelName() + " (ms):" : null;
        String key = reported.written() ? plainId : null;
        String formula = statistic.formulaName() + " of " + series.stem() + "_i (s) * 1000; " + series.definition()
                + "; empty list -> 0";
        return new MetricDefinition(
                origin == Origin.VLLM ? "vllm_" + plainId : plainId,
                origin == Origin.SGLANG ? key : null,
                origin == Origin.SGLANG ? label : null,
                origin == Origin.VLLM ? key : null,
                origin == Origin.VLLM ? label : null,
                Unit.MILLISECONDS, Direction.LOWER_IS_BETTER, origin, series.tokenBasis(), formula,
                statistic, series,
                a -> OptionalDouble.of(statistic.apply(a.series(series)) * 1000), null, null, Use.NONE);
    }

    private static Function<Aggregation, OptionalDouble> always(ToDoubleFunction<Aggregation> computation) {
        return a -> OptionalDouble.of(computation.applyAsDouble(a));
    }
}
