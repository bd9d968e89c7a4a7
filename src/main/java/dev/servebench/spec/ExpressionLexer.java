package dev.servebench.spec;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits an expectation expression into tokens with their offsets. Words run up to whitespace or one of
 * {@code @ = , < > ≥ ≤ ×}, so units such as {@code tok/s} and numbers such as {@code 2.5} stay whole.
 */
final class ExpressionLexer {

    enum Kind { WORD, COMPARATOR, AT, EQUALS, COMMA, TIMES, END }

    /** @param offset index of the token's first char in the expression */
    record Token(Kind kind, String text, int offset) {
        String describe() {
            return kind == Kind.END ? "the end of the expression" : "'" + text + "'";
        }
    }

    private static final String SINGLE_CHAR_TOKENS = "@=,<>≥≤×";

    private ExpressionLexer() {
    }

    static List<Token> tokens(String expression) {
        List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < expression.length()) {
            char c = expression.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if ((c == '>' || c == '<') && expression.startsWith("=", i + 1)) {
                tokens.add(new Token(Kind.COMPARATOR, expression.substring(i, i + 2), i));
                i += 2;
            } else if (SINGLE_CHAR_TOKENS.indexOf(c) >= 0) {
                Kind kind = switch (c) {
                    case '@' -> Kind.AT;
                    case '=' -> Kind.EQUALS;
                    case ',' -> Kind.COMMA;
                    case '×' -> Kind.TIMES;
                    default -> Kind.COMPARATOR;
                };
                tokens.add(new Token(kind, String.valueOf(c), i));
                i++;
            } else {
                int start = i;
                while (i < expression.length() && !Character.isWhitespace(expression.charAt(i))
                        && SINGLE_CHAR_TOKENS.indexOf(expression.charAt(i)) < 0) {
                    i++;
                }
                tokens.add(new Token(Kind.WORD, expression.substring(start, i), start));
            }
        }
        tokens.add(new Token(Kind.END, "", expression.length()));
        return tokens;
    }
}
