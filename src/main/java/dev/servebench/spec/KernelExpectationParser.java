package dev.servebench.spec;

import dev.servebench.metric.KernelBenchmark;
import dev.servebench.metric.KernelMetric;
import dev.servebench.metric.KernelParameter;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import dev.servebench.spec.ExpressionLexer.Kind;
import dev.servebench.spec.ExpressionLexer.Token;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses one line of a spec's {@code kernels} list:
 * <pre>
 * absolute = KERNEL_METRIC CMP NUMBER UNIT "@" POINT
 * relative = KERNEL_METRIC "@" POINT CMP NUMBER ("x" | "×") KERNEL_METRIC ["@" POINT]
 * POINT    = PARAMETER "=" VALUE ("," PARAMETER "=" VALUE)*
 * </pre>
 * A point names parameters of the metric's benchmark ({@code KernelBenchmark}) with values of their kind;
 * the reference point of a relative line starts from the checked point ({@code KernelPoint.carriedTo}).
 */
final class KernelExpectationParser {

    private static final List<String> IDS = Arrays.stream(KernelMetric.values()).map(KernelMetric::id).toList();
    private static final String ABSOLUTE_FORM = "KERNEL_METRIC CMP NUMBER UNIT @ POINT, e.g. moe_gflops >= 50 GFLOP/s"
            + " @ backend=native,tokens=64";
    private static final String RELATIVE_FORM = "KERNEL_METRIC@POINT CMP FACTOR x KERNEL_METRIC[@POINT], e.g."
            + " moe_gflops@backend=native,tokens=64 >= 1 x moe_gflops@backend=ggml-f16";

    private final ExpressionCursor cursor;

    private KernelExpectationParser(ExpressionCursor cursor) {
        this.cursor = cursor;
    }

    /** Arguments as {@code ExpectationParser.parse}'s; a kernel point does not depend on the sweep. */
    static KernelExpectation parse(String expression, SourcePosition start, boolean exactColumns, String path) {
        return new KernelExpectationParser(new ExpressionCursor(expression, start, exactColumns, path)).expectation();
    }

    private KernelExpectation expectation() {
        KernelMetric metric = metric();
        if (cursor.peek().kind() == Kind.AT) {
            cursor.skip();
            return relative(metric, point(metric.benchmark()));
        }
        return absolute(metric);
    }

    private AbsoluteKernelExpectation absolute(KernelMetric metric) {
        Comparison comparison = cursor.comparison();
        Token numberToken = cursor.peek();
        double threshold = cursor.number("a threshold", ABSOLUTE_FORM + ", or " + RELATIVE_FORM);
        Token unitToken = cursor.take();
        String accepted = String.join(" or ", SpecUnits.accepted(metric.unit()));
        if (unitToken.kind() != Kind.WORD) {
            throw cursor.error(unitToken, "missing unit after " + numberToken.text() + ": " + metric.id() + " is in "
                    + metric.unit().symbol() + ", write '" + numberToken.text() + " " + metric.unit().symbol() + "'");
        }
        Unit unit = SpecUnits.parse(unitToken.text()).orElseThrow(() -> cursor.error(unitToken, "unknown unit '"
                + unitToken.text() + "'; " + metric.id() + " is in " + metric.unit().symbol() + " (write " + accepted + ")"));
        if (unit != metric.unit()) {
            throw cursor.error(unitToken, "unit '" + unitToken.text() + "' does not match " + metric.id()
                    + ", which is in " + metric.unit().symbol() + " (write " + accepted + "; values are not converted)");
        }
        cursor.expect(Kind.AT, "'@' and the benchmark's parameter point, e.g. '@ backend=native,tokens=64'");
        KernelPoint point = point(metric.benchmark());
        cursor.end("the parameter point");
        return new AbsoluteKernelExpectation(metric, comparison, threshold, unit, point, cursor.start());
    }

    private RelativeKernelExpectation relative(KernelMetric metric, KernelPoint point) {
        Comparison comparison = cursor.comparison();
        double factor = cursor.factor(RELATIVE_FORM);
        Token referenceToken = cursor.peek();
        KernelMetric reference = metric();
        KernelPoint written = new KernelPoint(reference.benchmark(), Map.of());
        if (cursor.peek().kind() == Kind.AT) {
            cursor.skip();
            written = point(reference.benchmark());
        }
        cursor.end("the reference");
        if (reference.unit() != metric.unit()) {
            throw cursor.error(referenceToken, "units differ: " + metric.id() + " is in " + metric.unit().symbol()
                    + ", " + reference.id() + " in " + reference.unit().symbol()
                    + "; a relative expectation compares like with like");
        }
        KernelPoint referencePoint = point.carriedTo(reference.benchmark(), written);
        if (reference == metric && referencePoint.equals(point)) {
            throw cursor.error(referenceToken, "compares " + metric.id() + "@" + point + " with itself; name the"
                    + " baseline's parameters after '@', e.g. " + reference.id() + "@backend=…");
        }
        return new RelativeKernelExpectation(metric, point, comparison, factor, reference, referencePoint, written,
                cursor.start());
    }

    private KernelMetric metric() {
        Token token = cursor.take();
        if (token.kind() != Kind.WORD) {
            throw cursor.error(token, "expected a kernel metric id (e.g. moe_gflops), found " + token.describe());
        }
        String name = token.text();
        if (MetricId.byId(name).isPresent()) {
            throw cursor.error(token, "'" + name + "' is a serving metric: it goes in the spec's expect: list;"
                    + " kernels: takes kernel metrics (" + String.join(", ", IDS) + ")");
        }
        return KernelMetric.byId(name).orElseThrow(() -> cursor.error(token, "unknown kernel metric '" + name + "'"
                + Similarity.didYouMean(Similarity.closest(name, IDS, 3)) + "; kernel metrics are "
                + String.join(", ", IDS) + " (docs/kernels.md)"));
    }

    /** {@code name=value[,name=value…]}: parameters of {@code benchmark}, each once, each a valid value. */
    private KernelPoint point(KernelBenchmark benchmark) {
        Map<String, String> parameters = new LinkedHashMap<>();
        while (true) {
            Token name = cursor.take();
            if (name.kind() != Kind.WORD) {
                throw cursor.error(name, "expected a parameter of " + benchmark.className() + " ("
                        + String.join(", ", benchmark.parameterNames()) + "), found " + name.describe());
            }
            KernelParameter parameter = benchmark.parameter(name.text()).orElseThrow(() -> cursor.error(name,
                    "unknown parameter '" + name.text() + "': " + benchmark.className() + " has "
                            + String.join(", ", benchmark.parameterNames())
                            + Similarity.didYouMean(Similarity.closest(name.text(), benchmark.parameterNames(), 2))));
            if (parameters.containsKey(parameter.name())) {
                throw cursor.error(name, parameter.name() + " is given twice");
            }
            cursor.expect(Kind.EQUALS, "'=' after " + name.text());
            Token value = cursor.take();
            String canonical = parameter.canonical(value.kind() == Kind.WORD ? value.text() : "").orElseThrow(
                    () -> cursor.error(value, parameter.name() + ": expected " + parameter.expected() + ", found "
                            + value.describe() + (parameter.kind() == KernelParameter.Kind.CHOICE
                            ? Similarity.didYouMean(Similarity.closest(value.text(), parameter.choices(), 2)) : "")));
            parameters.put(parameter.name(), canonical);
            if (cursor.peek().kind() != Kind.COMMA) {
                return new KernelPoint(benchmark, parameters);
            }
            cursor.skip();
        }
    }
}
