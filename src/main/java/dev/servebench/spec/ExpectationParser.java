package dev.servebench.spec;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import dev.servebench.spec.ExpressionLexer.Kind;
import dev.servebench.spec.ExpressionLexer.Token;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;
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
 * Errors point at the offending token: the expression's own column plus the token's offset, when the YAML
 * scalar maps one-to-one onto the source line; otherwise at the expression's start.
 */
final class ExpectationParser {

    private static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?([eE][+-]?\\d+)?");
    private static final Pattern FACTOR_WITH_X = Pattern.compile("(\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)[x×]");

    private final String expression;
    private final SourcePosition start;
    private final boolean exactColumns;
    private final String path;
    private final Optional<SweepSpec> sweep;
    private final List<Token> tokens;
    private int next;

    private ExpectationParser(String expression, SourcePosition start, boolean exactColumns, String path,
            Optional<SweepSpec> sweep) {
        this.expression = expression;
        this.start = start;
        this.exactColumns = exactColumns;
        this.path = path;
        this.sweep = sweep;
        this.tokens = ExpressionLexer.tokens(expression);
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
        if (peek().kind() == Kind.AT) {
            next++;
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
        Comparison comparison = comparison();
        Token numberToken = peek();
        var glued = FACTOR_WITH_X.matcher(numberToken.text());
        if (numberToken.kind() == Kind.WORD && glued.matches()) {
            next++;
            return bound(metric, comparison, numberToken, Double.parseDouble(glued.group(1)));
        }
        Token afterNumber = next + 1 < tokens.size() ? tokens.get(next + 1) : numberToken;
        if (afterNumber.kind() == Kind.TIMES || (afterNumber.kind() == Kind.WORD && afterNumber.text().equals("x"))) {
            double factor = number("a factor", "METRIC CMP FACTOR x BOUND @ POINT, e.g. output_throughput >= 0.25 x"
                    + " roofline_output_throughput @ concurrency=1");
            next++;
            return bound(metric, comparison, numberToken, factor);
        }
        double threshold = number("a threshold", "METRIC CMP NUMBER UNIT @ POINT, e.g. output_throughput >= 600 tok/s"
                + " @ concurrency=256, or METRIC@POINT CMP FACTOR x METRIC@POINT");
        Token unitToken = take();
        String accepted = String.join(" or ", SpecUnits.accepted(metric.unit()));
        if (unitToken.kind() != Kind.WORD) {
            throw error(unitToken, "missing unit after " + numberToken.text() + ": " + metric.id() + " is in "
                    + metric.unit().symbol() + ", write '" + numberToken.text() + " " + metric.unit().symbol() + "'");
        }
        Unit unit = SpecUnits.parse(unitToken.text()).orElseThrow(() -> error(unitToken, "unknown unit '"
                + unitToken.text() + "'; " + metric.id() + " is in " + metric.unit().symbol() + " (write " + accepted + ")"));
        if (unit != metric.unit()) {
            throw error(unitToken, "unit '" + unitToken.text() + "' does not match " + metric.id() + ", which is in "
                    + metric.unit().symbol() + " (write " + accepted + converted(threshold, unit, metric.unit())
                    + "; values are not converted)");
        }
        expect(Kind.AT, "'@' and the load point, e.g. '@ concurrency=256'");
        LoadPointKey point = point();
        end();
        return new AbsoluteExpectation(metric, comparison, threshold, unit, point, start);
    }

    /** After {@code FACTOR x}: the bound's name, '@' and the point. */
    private BoundExpectation bound(MetricId metric, Comparison comparison, Token factorToken, double factor) {
        if (!(factor > 0)) {
            throw error(factorToken, "the factor must be > 0, found " + factorToken.text());
        }
        Token boundToken = take();
        String known = java.util.Arrays.stream(BoundOperand.values()).map(BoundOperand::id)
                .collect(Collectors.joining(", "));
        if (boundToken.kind() != Kind.WORD) {
            throw error(boundToken, "expected a bound (" + known + ") after the factor, found " + boundToken.describe());
        }
        BoundOperand bound = BoundOperand.find(boundToken.text()).orElseThrow(() -> error(boundToken,
                MetricNames.find(boundToken.text()).isPresent()
                        ? "'" + boundToken.text() + "' is a metric; comparing with a metric at another point is"
                        + " written METRIC@POINT CMP FACTOR x METRIC@POINT, and a bound is one of " + known
                        : "unknown bound '" + boundToken.text() + "'; the bounds are " + known));
        if (bound.unit() != metric.unit()) {
            throw error(boundToken, "units differ: " + metric.id() + " is in " + metric.unit().symbol() + ", "
                    + bound.id() + " in " + bound.unit().symbol());
        }
        expect(Kind.AT, "'@' and the load point, e.g. '@ concurrency=1'");
        LoadPointKey point = point();
        end();
        return new BoundExpectation(metric, comparison, factor, bound, point, start);
    }

    private RelativeExpectation relative(MetricId metric, LoadPointKey point) {
        Comparison comparison = comparison();
        Token factorToken = peek();
        double factor;
        var glued = FACTOR_WITH_X.matcher(factorToken.text());
        if (factorToken.kind() == Kind.WORD && glued.matches()) {
            next++;
            factor = Double.parseDouble(glued.group(1));
        } else {
            factor = number("a factor", "METRIC@POINT CMP FACTOR x METRIC@POINT, e.g. output_throughput@concurrency=256"
                    + " >= 2.5 x output_throughput@concurrency=64");
            Token times = take();
            if (!(times.kind() == Kind.TIMES || (times.kind() == Kind.WORD && times.text().equals("x")))) {
                String hint = SpecUnits.parse(times.text()).isPresent()
                        ? " (an absolute expectation puts the point last: METRIC CMP NUMBER UNIT @ POINT)" : "";
                throw error(times, "expected 'x' or '×' after the factor " + factorToken.text() + ", found "
                        + times.describe() + hint);
            }
        }
        if (!(factor > 0)) {
            throw error(factorToken, "the factor must be > 0, found " + factorToken.text());
        }
        Token referenceToken = peek();
        MetricId reference = metric();
        expect(Kind.AT, "'@' and the reference load point, e.g. 'output_throughput@concurrency=64'");
        LoadPointKey referencePoint = point();
        end();
        if (reference.unit() != metric.unit()) {
            throw error(referenceToken, "units differ: " + metric.id() + " is in " + metric.unit().symbol() + ", "
                    + reference.id() + " in " + reference.unit().symbol() + "; a relative expectation compares like with like");
        }
        if (reference == metric && referencePoint.equals(point)) {
            throw error(referenceToken, "compares " + metric.id() + "@" + point + " with itself");
        }
        return new RelativeExpectation(metric, point, comparison, factor, reference, referencePoint, start);
    }

    private MetricId metric() {
        Token token = take();
        if (token.kind() != Kind.WORD) {
            throw error(token, "expected a metric id (e.g. output_throughput), found " + token.describe());
        }
        String name = token.text();
        return MetricNames.find(name).orElseThrow(() -> error(token, "unknown metric '" + name + "'"
                + Similarity.didYouMean(MetricNames.suggestions(name)) + "; metric ids are listed in docs/metrics.md"));
    }

    private Comparison comparison() {
        Token token = take();
        if (token.kind() != Kind.COMPARATOR) {
            throw error(token, "expected a comparator (>=, <=, >, <, ≥, ≤), found " + token.describe());
        }
        return Comparison.parse(token.text()).orElseThrow();
    }

    private double number(String what, String form) {
        Token token = take();
        if (token.kind() == Kind.WORD && token.text().startsWith("-") && NUMBER.matcher(token.text().substring(1)).matches()) {
            throw error(token, what + " must be >= 0, found " + token.text());
        }
        if (token.kind() != Kind.WORD || !NUMBER.matcher(token.text()).matches()) {
            throw error(token, "expected " + what + " (a number), found " + token.describe() + "; the form is " + form);
        }
        return Double.parseDouble(token.text());
    }

    /** {@code concurrency=N}, {@code rate=R} or both, comma-separated; must be a point of the sweep. */
    private LoadPointKey point() {
        Token first = peek();
        Integer concurrency = null;
        Double rate = null;
        while (true) {
            Token name = take();
            if (name.kind() != Kind.WORD || !(name.text().equals("concurrency") || name.text().equals("rate"))) {
                throw error(name, "expected a load point (concurrency=N, rate=R or concurrency=N,rate=R), found "
                        + name.describe());
            }
            expect(Kind.EQUALS, "'=' after " + name.text());
            Token value = take();
            if (name.text().equals("concurrency")) {
                if (concurrency != null) {
                    throw error(name, "concurrency is given twice");
                }
                concurrency = concurrencyValue(value);
            } else {
                if (rate != null) {
                    throw error(name, "rate is given twice");
                }
                rate = rateValue(value);
            }
            if (peek().kind() != Kind.COMMA) {
                break;
            }
            next++;
        }
        LoadPointKey key = new LoadPointKey(concurrency == null ? 0 : concurrency,
                rate == null ? Double.POSITIVE_INFINITY : rate);
        if (sweep.isPresent() && !sweep.get().contains(key)) {
            throw error(first, "load point " + key + " is not in the sweep; its points are "
                    + sweep.get().points().stream().map(LoadPointKey::toString).collect(Collectors.joining(", ")));
        }
        return key;
    }

    private int concurrencyValue(Token value) {
        if (value.kind() == Kind.WORD && value.text().matches("\\d{1,9}") && Integer.parseInt(value.text()) >= 1) {
            return Integer.parseInt(value.text());
        }
        throw error(value, "expected a concurrency (an integer >= 1), found " + value.describe());
    }

    private double rateValue(Token value) {
        if (value.kind() == Kind.WORD && value.text().equals("inf")) {
            return Double.POSITIVE_INFINITY;
        }
        if (value.kind() == Kind.WORD && NUMBER.matcher(value.text()).matches() && Double.parseDouble(value.text()) > 0) {
            return Double.parseDouble(value.text());
        }
        throw error(value, "expected a request rate (a number > 0 or inf), found " + value.describe());
    }

    private void expect(Kind kind, String what) {
        Token token = take();
        if (token.kind() != kind) {
            throw error(token, "expected " + what + ", found " + token.describe());
        }
    }

    private void end() {
        Token token = peek();
        if (token.kind() != Kind.END) {
            throw error(token, "unexpected " + token.describe() + " after the load point");
        }
    }

    private Token peek() {
        return tokens.get(next);
    }

    private Token take() {
        Token token = tokens.get(next);
        if (token.kind() != Kind.END) {
            next++;
        }
        return token;
    }

    private SpecException error(Token token, String problem) {
        SourcePosition at = exactColumns ? start.shiftedRight(expression.codePointCount(0, token.offset())) : start;
        return new SpecException(at, path + ": " + problem);
    }
}
