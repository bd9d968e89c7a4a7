package dev.servebench.spec;

import dev.servebench.metric.KernelMetric;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import dev.servebench.spec.ExpressionLexer.Kind;
import dev.servebench.spec.ExpressionLexer.Token;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Parses one expectation expression:
 * <pre>
 * absolute   = METRIC CMP NUMBER UNIT "@" POINT
 * bound      = METRIC CMP NUMBER ("x" | "×") BOUND "@" POINT     BOUND = "roofline_output_throughput" | "min_itl_ms"
 * relative   = METRIC "@" POINT CMP NUMBER ("x" | "×") METRIC "@" POINT
 * POINT      = COORDINATE ("," COORDINATE)*      COORDINATE = "concurrency=" INTEGER | "rate=" (NUMBER | "inf")
 * CMP        = ">=" | "≥" | "<=" | "≤" | ">" | "<"
 * </pre>
 * Errors point at the offending token ({@link ExpressionCursor}).
 */
final class ExpectationParser {

    private final ExpressionCursor cursor;
    private final Optional<SweepSpec> sweep;

    private ExpectationParser(String expression, SourcePosition start, boolean exactColumns, String path,
            Optional<SweepSpec> sweep) {
        this.cursor = new ExpressionCursor(expression, start, exactColumns, path);
        this.sweep = sweep;
    }

    /**
     * @param start        position of the expression's first character
     * @param exactColumns whether character offsets in {@code expression} are columns on {@code start}'s line
     * @param path         how messages name the list item, e.g. {@code expect[3]}
     * @param sweep        empty when the sweep is wrong: points are then checked for form only
     */
    static Expectation parse(String expression, SourcePosition start, boolean exactColumns, String path,
            Optional<SweepSpec> sweep) {
        return new ExpectationParser(expression, start, exactColumns, path, sweep).expectation();
    }

    private Expectation expectation() {
        MetricId metric = metric();
        if (cursor.peek().kind() == Kind.AT) {
            cursor.skip();
            return relative(metric, point());
        }
        return absolute(metric);
    }

    /** For a time in the other time unit, the same time in the metric's: {@code : 2 s is 2000 ms}. */
    private static String converted(double value, Unit written, Unit wanted) {
        double factor = written == Unit.SECONDS && wanted == Unit.MILLISECONDS ? 1000
                : written == Unit.MILLISECONDS && wanted == Unit.SECONDS ? 0.001 : Double.NaN;
        return Double.isNaN(factor) ? "" : ": " + Values.plain(value) + " " + written.symbol() + " is "
                + Values.plain(value * factor) + " " + wanted.symbol();
    }

    private Expectation absolute(MetricId metric) {
        Comparison comparison = cursor.comparison();
        Token numberToken = cursor.peek();
        var glued = ExpressionCursor.FACTOR_WITH_X.matcher(numberToken.text());
        if (numberToken.kind() == Kind.WORD && glued.matches()) {
            cursor.skip();
            return bound(metric, comparison, numberToken, Double.parseDouble(glued.group(1)));
        }
        Token afterNumber = cursor.peekAhead(1);
        if (afterNumber.kind() == Kind.TIMES || (afterNumber.kind() == Kind.WORD && afterNumber.text().equals("x"))) {
            double factor = cursor.number("a factor", "METRIC CMP FACTOR x BOUND @ POINT, e.g. output_throughput >= 0.25 x"
                    + " roofline_output_throughput @ concurrency=1");
            cursor.skip();
            return bound(metric, comparison, numberToken, factor);
        }
        double threshold = cursor.number("a threshold", "METRIC CMP NUMBER UNIT @ POINT, e.g. output_throughput >= 600 tok/s"
                + " @ concurrency=256, or METRIC@POINT CMP FACTOR x METRIC@POINT");
        Token unitToken = cursor.take();
        String accepted = String.join(" or ", SpecUnits.accepted(metric.unit()));
        if (unitToken.kind() != Kind.WORD) {
            throw cursor.error(unitToken, "missing unit after " + numberToken.text() + ": " + metric.id() + " is in "
                    + metric.unit().symbol() + ", write '" + numberToken.text() + " " + metric.unit().symbol() + "'");
        }
        Unit unit = SpecUnits.parse(unitToken.text()).orElseThrow(() -> cursor.error(unitToken, "unknown unit '"
                + unitToken.text() + "'; " + metric.id() + " is in " + metric.unit().symbol() + " (write " + accepted + ")"));
        if (unit != metric.unit()) {
            throw cursor.error(unitToken, "unit '" + unitToken.text() + "' does not match " + metric.id() + ", which is in "
                    + metric.unit().symbol() + " (write " + accepted + converted(threshold, unit, metric.unit())
                    + "; values are not converted)");
        }
        cursor.expect(Kind.AT, "'@' and the load point, e.g. '@ concurrency=256'");
        LoadPointKey point = point();
        cursor.end("the load point");
        return new AbsoluteExpectation(metric, comparison, threshold, unit, point, cursor.start());
    }

    /** After {@code FACTOR x}: the bound's name, '@' and the point. */
    private BoundExpectation bound(MetricId metric, Comparison comparison, Token factorToken, double factor) {
        if (!(factor > 0)) {
            throw cursor.error(factorToken, "the factor must be > 0, found " + factorToken.text());
        }
        Token boundToken = cursor.take();
        String known = java.util.Arrays.stream(BoundOperand.values()).map(BoundOperand::id)
                .collect(Collectors.joining(", "));
        if (boundToken.kind() != Kind.WORD) {
            throw cursor.error(boundToken, "expected a bound (" + known + ") after the factor, found " + boundToken.describe());
        }
        BoundOperand bound = BoundOperand.find(boundToken.text()).orElseThrow(() -> cursor.error(boundToken,
                MetricNames.find(boundToken.text()).isPresent()
                        ? "'" + boundToken.text() + "' is a metric; comparing with a metric at another point is"
                        + " written METRIC@POINT CMP FACTOR x METRIC@POINT, and a bound is one of " + known
                        : "unknown bound '" + boundToken.text() + "'; the bounds are " + known));
        if (bound.unit() != metric.unit()) {
            throw cursor.error(boundToken, "units differ: " + metric.id() + " is in " + metric.unit().symbol() + ", "
                    + bound.id() + " in " + bound.unit().symbol());
        }
        cursor.expect(Kind.AT, "'@' and the load point, e.g. '@ concurrency=1'");
        LoadPointKey point = point();
        cursor.end("the load point");
        return new BoundExpectation(metric, comparison, factor, bound, point, cursor.start());
    }

    private RelativeExpectation relative(MetricId metric, LoadPointKey point) {
        Comparison comparison = cursor.comparison();
        double factor = cursor.factor("METRIC@POINT CMP FACTOR x METRIC@POINT, e.g. output_throughput@concurrency=256"
                + " >= 2.5 x output_throughput@concurrency=64");
        Token referenceToken = cursor.peek();
        MetricId reference = metric();
        cursor.expect(Kind.AT, "'@' and the reference load point, e.g. 'output_throughput@concurrency=64'");
        LoadPointKey referencePoint = point();
        cursor.end("the load point");
        if (reference.unit() != metric.unit()) {
            throw cursor.error(referenceToken, "units differ: " + metric.id() + " is in " + metric.unit().symbol() + ", "
                    + reference.id() + " in " + reference.unit().symbol() + "; a relative expectation compares like with like");
        }
        if (reference == metric && referencePoint.equals(point)) {
            throw cursor.error(referenceToken, "compares " + metric.id() + "@" + point + " with itself");
        }
        return new RelativeExpectation(metric, point, comparison, factor, reference, referencePoint, cursor.start());
    }

    private MetricId metric() {
        Token token = cursor.take();
        if (token.kind() != Kind.WORD) {
            throw cursor.error(token, "expected a metric id (e.g. output_throughput), found " + token.describe());
        }
        String name = token.text();
        if (KernelMetric.byId(name).isPresent()) {
            throw cursor.error(token, "'" + name + "' is a kernel metric: kernel expectations go in the spec's kernels:"
                    + " list (docs/specs.md), expect: takes serving metrics");
        }
        return MetricNames.find(name).orElseThrow(() -> cursor.error(token, "unknown metric '" + name + "'"
                + Similarity.didYouMean(MetricNames.suggestions(name)) + "; metric ids are listed in docs/metrics.md"));
    }



    /** {@code concurrency=N}, {@code rate=R} or both, comma-separated; must be a point of the sweep. */
    private LoadPointKey point() {
        Token first = cursor.peek();
        Integer concurrency = null;
        Double rate = null;
        while (true) {
            Token name = cursor.take();
            if (name.kind() != Kind.WORD || !(name.text().equals("concurrency") || name.text().equals("rate"))) {
                throw cursor.error(name, "expected a load point (concurrency=N, rate=R or concurrency=N,rate=R), found "
                        + name.describe());
            }
            cursor.expect(Kind.EQUALS, "'=' after " + name.text());
            Token value = cursor.take();
            if (name.text().equals("concurrency")) {
                if (concurrency != null) {
                    throw cursor.error(name, "concurrency is given twice");
                }
                concurrency = concurrencyValue(value);
            } else {
                if (rate != null) {
                    throw cursor.error(name, "rate is given twice");
                }
                rate = rateValue(value);
            }
            if (cursor.peek().kind() != Kind.COMMA) {
                break;
            }
            cursor.skip();
        }
        LoadPointKey key = new LoadPointKey(concurrency == null ? 0 : concurrency,
                rate == null ? Double.POSITIVE_INFINITY : rate);
        if (sweep.isPresent() && !sweep.get().contains(key)) {
            throw cursor.error(first, "load point " + key + " is not in the sweep; its points are "
                    + sweep.get().points().stream().map(LoadPointKey::toString).collect(Collectors.joining(", ")));
        }
        return key;
    }

    private int concurrencyValue(Token value) {
        if (value.kind() == Kind.WORD && value.text().matches("\\d{1,9}") && Integer.parseInt(value.text()) >= 1) {
            return Integer.parseInt(value.text());
        }
        throw cursor.error(value, "expected a concurrency (an integer >= 1), found " + value.describe());
    }

    private double rateValue(Token value) {
        if (value.kind() == Kind.WORD && value.text().equals("inf")) {
            return Double.POSITIVE_INFINITY;
        }
        if (value.kind() == Kind.WORD && ExpressionCursor.NUMBER.matcher(value.text()).matches()
                && Double.parseDouble(value.text()) > 0) {
            return Double.parseDouble(value.text());
        }
        throw cursor.error(value, "expected a request rate (a number > 0 or inf), found " + value.describe());
    }
}
