package dev.servebench.client;

import java.nio.charset.StandardCharsets;

/**
 * A single-pass, allocation-free, strict JSON validator with a pull API just rich enough for the chunk
 * parsers: walk objects and arrays, match keys on raw bytes, test string emptiness, decode strings (only
 * when a run keeps the generated text), read ints.
 *
 * <p>It accepts only RFC 8259 JSON and is deliberately at least as strict as the Jackson configuration in
 * {@link ChunkParser}: any input it cannot vouch for — invalid JSON, a key containing an escape, nesting
 * deeper than {@link #MAX_DEPTH}, a number longer than {@link #MAX_NUMBER_CHARS}, a key longer than
 * {@link #MAX_KEY_BYTES}, an int that overflows — makes it throw {@link Unsupported}, and the caller then
 * re-parses with Jackson, which stays the reference for results and error messages. Hence being stricter
 * than Jackson only costs speed, while being laxer would change behaviour.
 *
 * <p>String bytes are validated as strict UTF-8 (RFC 3629: no overlongs, no encoded surrogates, nothing
 * above U+10FFFF), not merely accepted when >= 0x80: Jackson rejects all of those, even in strings it
 * only skips, so accepting them would turn a protocol failure into a parsed event. Escapes follow the RFC
 * grammar only: a lone surrogate escape such as {@code "\uD800"} is accepted, as Jackson does.
 *
 * <p>Positions: after {@link #openObject()} or {@link #nextKey()} return true the scanner sits on the
 * first byte of that member's value; after {@link #openArray()} or {@link #nextElement()} return true, on
 * the element's first byte. Every value must then be consumed by exactly one value method.
 */
final class JsonScanner {

    /** Jackson is configured with maxNestingDepth 64, counting the root object as depth 1. */
    static final int MAX_DEPTH = 64;
    /** Far below Jackson's number-length limit (1000), so that limit can never be what differs. */
    static final int MAX_NUMBER_CHARS = 64;
    /** Far below Jackson's name-length limit (50000). */
    static final int MAX_KEY_BYTES = 1024;
    /** {@link #intOrAbsent()}'s answer for a value that is not an integer number. */
    static final long ABSENT = Long.MIN_VALUE;

    /** Thrown, pre-allocated and without a stack trace, whenever the caller must fall back to Jackson. */
    static final class Unsupported extends RuntimeException {
        private Unsupported() {
            super(null, null, false, false);
        }
    }

    static final Unsupported UNSUPPORTED = new Unsupported();

    private static final byte[] TRUE = {'t', 'r', 'u', 'e'};
    private static final byte[] FALSE = {'f', 'a', 'l', 's', 'e'};
    private static final byte[] NULL = {'n', 'u', 'l', 'l'};

    private byte[] data;
    private int pos;
    private int end;
    private int depth;
    private int keyStart;
    private int keyLength;
    private int stringStart;
    private boolean stringEscaped;

    /** Starts scanning a document; returns its first significant byte, or -1 when there is none. */
    int begin(byte[] data, int offset, int length) {
        this.data = data;
        this.pos = offset;
        this.end = offset + length;
        this.depth = 0;
        return skipWhitespace() ? data[pos] : -1;
    }

    /** Requires that only whitespace follows the root value. */
    void finish() {
        if (skipWhitespace()) {
            throw UNSUPPORTED;
        }
    }

    /** The first byte of the current value: {@code " { [ t f n - 0-9}, or anything else for invalid input. */
    int peek() {
        return data[pos];
    }

    /** Whether the current member's key is {@code name}, byte for byte (keys with escapes never get here). */
    boolean keyIs(byte[] name) {
        if (keyLength != name.length) {
            return false;
        }
        byte[] d = data;
        int k = keyStart;
        for (int i = 0; i < name.length; i++) {
            if (d[k + i] != name[i]) {
                return false;
            }
        }
        return true;
    }

    /** Enters the object at the current position; true when it has a first member (then its key is read). */
    boolean openObject() {
        enter();
        int c = significant();
        if (c == '}') {
            pos++;
            depth--;
            return false;
        }
        readKey(c);
        return true;
    }

    /** Moves past the previous member; true when another one follows. */
    boolean nextKey() {
        int c = significant();
        if (c == ',') {
            pos++;
            readKey(significant());
            return true;
        }
        if (c == '}') {
            pos++;
            depth--;
            return false;
        }
        throw UNSUPPORTED;
    }

    /** Enters the array at the current position; true when it has a first element. */
    boolean openArray() {
        enter();
        if (significant() == ']') {
            pos++;
            depth--;
            return false;
        }
        return true;
    }

    /** Moves past the previous element; true when another one follows. */
    boolean nextElement() {
        int c = significant();
        if (c == ',') {
            pos++;
            significant();
            return true;
        }
        if (c == ']') {
            pos++;
            depth--;
            return false;
        }
        throw UNSUPPORTED;
    }

    /** Validates and consumes the current value, whatever it is. */
    void skipValue() {
        switch (data[pos]) {
            case '"' -> string();
            case '{' -> {
                for (boolean more = openObject(); more; more = nextKey()) {
                    skipValue();
                }
            }
            case '[' -> {
                for (boolean more = openArray(); more; more = nextElement()) {
                    skipValue();
                }
            }
            case 't' -> pos = JsonLexemes.literal(data, pos, end, TRUE);
            case 'f' -> pos = JsonLexemes.literal(data, pos, end, FALSE);
            case 'n' -> pos = JsonLexemes.literal(data, pos, end, NULL);
            default -> number();
        }
    }

    /**
     * Consumes a scalar value; true when it is a non-empty string. A container here is refused: the
     * Jackson parsers do not skip one in these positions, so their outcome is theirs to decide.
     */
    boolean scalarIsNonEmptyString() {
        int c = data[pos];
        if (c == '"') {
            return string() > 0;
        }
        if (c == '{' || c == '[') {
            throw UNSUPPORTED;
        }
        skipValue();
        return false;
    }

    /**
     * {@link #scalarIsNonEmptyString()} that also appends a string's decoded text to {@code out} (exactly
     * Jackson's {@code getText()}); any other scalar appends nothing.
     */
    boolean scalarStringInto(StringBuilder out) {
        int c = data[pos];
        if (c == '"') {
            int length = string();
            JsonLexemes.decode(data, stringStart, stringStart + length, out);
            return length > 0;
        }
        if (c == '{' || c == '[') {
            throw UNSUPPORTED;
        }
        skipValue();
        return false;
    }

    /** Consumes the current value; its int value when it is an integer number, else {@link #ABSENT}. */
    long intOrAbsent() {
        int c = data[pos];
        if (c != '-' && (c < '0' || c > '9')) {
            skipValue();
            return ABSENT;
        }
        int start = pos;
        if (!number()) {
            return ABSENT;
        }
        boolean negative = data[start] == '-';
        int from = negative ? start + 1 : start;
        if (pos - from > 10) {
            throw UNSUPPORTED; // Jackson's getIntValue() fails on overflow
        }
        long value = 0;
        for (int i = from; i < pos; i++) {
            value = value * 10 + (data[i] - '0');
        }
        value = negative ? -value : value;
        if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
            throw UNSUPPORTED;
        }
        return value;
    }

    /** Consumes a number; whether it had neither fraction nor exponent (Jackson's VALUE_NUMBER_INT). */
    boolean numberIsIntegral() {
        return number();
    }

    /** Consumes a string and decodes it; escapes are left to Jackson (only error messages need text). */
    String stringText() {
        int length = string();
        if (stringEscaped) {
            throw UNSUPPORTED;
        }
        return new String(data, stringStart, length, StandardCharsets.UTF_8);
    }

    private void enter() {
        if (++depth > MAX_DEPTH) {
            throw UNSUPPORTED;
        }
        pos++;
    }

    private void readKey(int c) {
        if (c != '"') {
            throw UNSUPPORTED;
        }
        int length = string();
        if (stringEscaped || length > MAX_KEY_BYTES) {
            throw UNSUPPORTED;
        }
        keyStart = stringStart;
        keyLength = length;
        if (significant() != ':') {
            throw UNSUPPORTED;
        }
        pos++;
        significant();
    }

    /** Skips whitespace; the next byte, which must exist. */
    private int significant() {
        int p = pos;
        // Compact JSON has no whitespace and every structural byte is above the space: stay small to inline.
        if (p < end && data[p] > ' ') {
            return data[p];
        }
        if (!skipWhitespace()) {
            throw UNSUPPORTED;
        }
        return data[pos];
    }

    /** Skips RFC 8259 whitespace; whether a byte follows. */
    private boolean skipWhitespace() {
        byte[] d = data;
        int p = pos;
        int e = end;
        while (p < e) {
            byte b = d[p];
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                pos = p;
                return true;
            }
            p++;
        }
        pos = p;
        return false;
    }

    /** Consumes a number; whether it is an integer (Jackson's VALUE_NUMBER_INT). */
    private boolean number() {
        int after = JsonLexemes.number(data, pos, end);
        pos = after < 0 ? ~after : after;
        return after >= 0;
    }

    /** Consumes a string; returns its raw content length in bytes and notes where and whether escaped. */
    private int string() {
        int start = pos + 1;
        int after = JsonLexemes.string(data, pos, end);
        stringEscaped = after < 0;
        pos = stringEscaped ? ~after : after;
        stringStart = start;
        return pos - 1 - start;
    }
}
