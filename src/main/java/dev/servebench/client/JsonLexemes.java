package dev.servebench.client;

import static dev.servebench.client.JsonScanner.UNSUPPORTED;

/**
 * Validating scanners for JSON's scalar lexemes, for {@link JsonScanner}. Each takes the lexeme's start
 * and the input's end, throws {@link JsonScanner.Unsupported} on anything outside the grammar, and
 * returns the position after the lexeme — bit-inverted ({@code ~end}, always negative) to flag a string
 * that contains escapes or a number that is not an integer, so that no state or allocation is needed.
 */
final class JsonLexemes {

    /**
     * String bytes that need no attention: printable ASCII but quote and backslash. On whole events one
     * table load per byte measured ~15% faster than three comparisons and ~25% faster than testing eight
     * bytes at a time (SWAR): real strings (keys, ids, token texts) are too short for the latter to pay.
     */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int i = 0x20; i < 0x80; i++) {
            PLAIN[i] = i != '"' && i != '\\';
        }
    }

    private JsonLexemes() {}

    /** Scans a string whose opening quote is at {@code p}; {@code ~end} when it contains an escape. */
    static int string(byte[] d, int p, int e) {
        boolean escaped = false;
        p++;
        while (true) {
            p = plain(d, p, e);
            if (p >= e) {
                throw UNSUPPORTED;
            }
            byte b = d[p];
            if (b == '"') {
                return escaped ? ~(p + 1) : p + 1;
            } else if (b == '\\') {
                p = escape(d, p + 1, e);
                escaped = true;
            } else if (b < 0) {
                p = utf8(d, p, e, b & 0xFF);
            } else {
                throw UNSUPPORTED; // raw control character
            }
        }
    }

    /** The position of the first byte from {@code p} that is not {@link #PLAIN}, or {@code e}. */
    private static int plain(byte[] d, int p, int e) {
        while (p < e && PLAIN[d[p] & 0xFF]) {
            p++;
        }
        return p;
    }

    private static int escape(byte[] d, int p, int e) {
        if (p >= e) {
            throw UNSUPPORTED;
        }
        switch (d[p]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return p + 1;
            }
            case 'u' -> {
                if (e - p < 5) {
                    throw UNSUPPORTED;
                }
                for (int i = p + 1; i <= p + 4; i++) {
                    if (Character.digit(d[i], 16) < 0) {
                        throw UNSUPPORTED;
                    }
                }
                return p + 5;
            }
            default -> throw UNSUPPORTED;
        }
    }

    /** One multi-byte UTF-8 sequence led by {@code lead} (>= 0x80), per RFC 3629's table of well-formed sequences. */
    private static int utf8(byte[] d, int p, int e, int lead) {
        int length;
        int secondMin = 0x80;
        int secondMax = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            if (lead == 0xE0) {
                secondMin = 0xA0; // overlong
            } else if (lead == 0xED) {
                secondMax = 0x9F; // UTF-16 surrogates
            }
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            if (lead == 0xF0) {
                secondMin = 0x90; // overlong
            } else if (lead == 0xF4) {
                secondMax = 0x8F; // above U+10FFFF
            }
        } else {
            throw UNSUPPORTED;
        }
        if (e - p < length) {
            throw UNSUPPORTED;
        }
        int second = d[p + 1] & 0xFF;
        if (second < secondMin || second > secondMax) {
            throw UNSUPPORTED;
        }
        for (int i = p + 2; i < p + length; i++) {
            if ((d[i] & 0xC0) != 0x80) {
                throw UNSUPPORTED;
            }
        }
        return p + length;
    }

    /**
     * Appends the content of a string that {@link #string} accepted (bytes {@code p} to {@code e}, quotes
     * excluded) to {@code out}, decoded as Jackson's {@code getText()} decodes it: escapes resolved (each
     * {@code \\u} escape one char, lone surrogates included), UTF-8 turned into UTF-16. No validation: the
     * bytes were validated when scanned.
     */
    static void decode(byte[] d, int p, int e, StringBuilder out) {
        while (p < e) {
            int b = d[p];
            if (b >= 0 && b != '\\') {
                out.append((char) b);
                p++;
            } else if (b == '\\') {
                int c = d[p + 1];
                if (c == 'u') {
                    out.append((char) (Character.digit(d[p + 2], 16) << 12 | Character.digit(d[p + 3], 16) << 8
                            | Character.digit(d[p + 4], 16) << 4 | Character.digit(d[p + 5], 16)));
                    p += 6;
                    continue;
                }
                out.append(switch (c) {
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    default -> (char) c; // '"', '\\' or '/'
                });
                p += 2;
            } else {
                int lead = b & 0xFF;
                if (lead < 0xE0) {
                    out.append((char) ((lead & 0x1F) << 6 | d[p + 1] & 0x3F));
                    p += 2;
                } else if (lead < 0xF0) {
                    out.append((char) ((lead & 0x0F) << 12 | (d[p + 1] & 0x3F) << 6 | d[p + 2] & 0x3F));
                    p += 3;
                } else {
                    out.appendCodePoint((lead & 0x07) << 18 | (d[p + 1] & 0x3F) << 12 | (d[p + 2] & 0x3F) << 6
                            | d[p + 3] & 0x3F);
                    p += 4;
                }
            }
        }
    }

    /**
     * Scans {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?} at {@code p}; {@code ~end} when
     * it has a fraction or exponent (Jackson's VALUE_NUMBER_FLOAT). What may follow is the caller's check,
     * which is how {@code 01} and {@code 1x} are refused.
     */
    static int number(byte[] d, int p, int e) {
        int start = p;
        if (p < e && d[p] == '-') {
            p++;
        }
        if (p >= e || d[p] < '0' || d[p] > '9') {
            throw UNSUPPORTED;
        }
        p = d[p] == '0' ? p + 1 : digits(d, p, e);
        boolean integral = true;
        if (p < e && d[p] == '.') {
            p = requiredDigits(d, p + 1, e);
            integral = false;
        }
        if (p < e && (d[p] == 'e' || d[p] == 'E')) {
            p++;
            if (p < e && (d[p] == '+' || d[p] == '-')) {
                p++;
            }
            p = requiredDigits(d, p, e);
            integral = false;
        }
        if (p - start > JsonScanner.MAX_NUMBER_CHARS) {
            throw UNSUPPORTED;
        }
        return integral ? p : ~p;
    }

    /** Scans the literal {@code word} (true, false or null) at {@code p}. */
    static int literal(byte[] d, int p, int e, byte[] word) {
        if (e - p < word.length) {
            throw UNSUPPORTED;
        }
        for (int i = 0; i < word.length; i++) {
            if (d[p + i] != word[i]) {
                throw UNSUPPORTED;
            }
        }
        return p + word.length;
    }

    private static int requiredDigits(byte[] d, int p, int e) {
        if (p >= e || d[p] < '0' || d[p] > '9') {
            throw UNSUPPORTED;
        }
        return digits(d, p, e);
    }

    private static int digits(byte[] d, int p, int e) {
        while (p < e && d[p] >= '0' && d[p] <= '9') {
            p++;
        }
        return p;
    }
}
