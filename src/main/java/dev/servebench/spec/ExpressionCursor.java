package dev.servebench.spec;

import dev.servebench.spec.ExpressionLexer.Kind;
import dev.servebench.spec.ExpressionLexer.Token;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Walks the tokens of one expectation expression and reports errors at the offending token: the
 * expression's own column plus the token's offset, when the YAML scalar maps one-to-one onto the source
 * line; otherwise at the expression's start. The serving and the kernel expectation parsers share it.
 */
final class ExpressionCursor {

    static final Pattern NUMBER = Pattern.compile("\\d+(\\.\\d+)?([eE][+-]?\\d+)?");
    /** A factor with its "x" glued on: {@code 2.5x}. */
    static final Pattern FACTOR_WITH_X = Pattern.compile("(\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?)[x×]");

    private final String expression;
    private final SourcePosition start;
    private final boolean exactColumns;
    private final String path;
    private final List<Token> tokens;
    private int next;

    ExpressionCursor(String expression, SourcePosition start, boolean exactColumns, String path) {
        this.expression = expression;
        this.start = start;
        this.exactColumns = exactColumns;
        this.path = path;
        this.tokens = ExpressionLexer.tokens(expression);
    }

    SourcePosition start() {
        return start;
    }

    Token peek() {
        return tokens.get(next);
    }

    /** The token {@code ahead} places after {@link #peek()}; the end token past the last. */
    Token peekAhead(int ahead) {
        return tokens.get(Math.min(next + ahead, tokens.size() - 1));
    }

    Token take() {
        Token token = tokens.get(next);
        if (token.kind() != Kind.END) {
            next++;
        }
        return token;
    }

    /** Steps over the token {@link #peek()} returned. */
    void skip() {
        take();
    }

    void expect(Kind kind, String what) {
        Token token = take();
        if (token.kind() != kind) {
            throw error(token, "expected " + what + ", found " + token.describe());
        }
    }

    Comparison comparison() {
        Token token = take();
        if (token.kind() != Kind.COMPARATOR) {
            throw error(token, "expected a comparator (>=, <=, >, <, ≥, ≤), found " + token.describe());
        }
        return Comparison.parse(token.text()).orElseThrow();
    }

    /** A number >= 0; {@code form} is the expression's form, quoted in the error. */
    double number(String what, String form) {
        Token token = take();
        if (token.kind() == Kind.WORD && token.text().startsWith("-") && NUMBER.matcher(token.text().substring(1)).matches()) {
            throw error(token, what + " must be >= 0, found " + token.text());
        }
        if (token.kind() != Kind.WORD || !NUMBER.matcher(token.text()).matches()) {
            throw error(token, "expected " + what + " (a number), found " + token.describe() + "; the form is " + form);
        }
        return Double.parseDouble(token.text());
    }

    /**
     * A relative expectation's factor and its {@code x} or {@code ×}, written apart ({@code 2.5 x}) or glued
     * ({@code 2.5x}); the factor must be > 0.
     */
    double factor(String form) {
        Token factorToken = peek();
        double factor;
        var glued = FACTOR_WITH_X.matcher(factorToken.text());
        if (factorToken.kind() == Kind.WORD && glued.matches()) {
            skip();
            factor = Double.parseDouble(glued.group(1));
        } else {
            factor = number("a factor", form);
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
        return factor;
    }

    /** Nothing may follow; {@code after} names what came last ("the load point"). */
    void end(String after) {
        Token token = peek();
        if (token.kind() != Kind.END) {
            throw error(token, "unexpected " + token.describe() + " after " + after);
        }
    }

    SpecException error(Token token, String problem) {
        SourcePosition at = exactColumns ? start.shiftedRight(expression.codePointCount(0, token.offset())) : start;
        return new SpecException(at, path + ": " + problem);
    }
}
