package dev.servebench.client;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/** Mostly-invalid variants of valid events: byte-level damage and targeted grammar violations. */
final class ChunkMutations {

    /** Bytes that are structurally meaningful, grammar edge cases, or malformed UTF-8. */
    private static final byte[] INTERESTING = bytes("{}[],:\"\\01-+.eEtfnux \t\n\r/");
    private static final int[] RAW = {0x00, 0x01, 0x1F, 0x7F, 0x80, 0xBF, 0xC0, 0xC1, 0xC3, 0xE0, 0xED, 0xF0, 0xF4,
        0xF5, 0xFE, 0xFF};
    /** Replacements for a number: invalid forms, plus valid ones Jackson refuses (too long) or may overflow. */
    private static final String[] BAD_NUMBERS = {"01", "-01", "00", "-", "+1", ".5", "1.", "1.e3", "1e", "1e+",
        "1E-", "--1", "0x1F", "1.2.3", "Infinity", "-Infinity", "NaN", "1 2", "- 1", "1_000", "١", "1".repeat(1001),
        "9".repeat(65), "-" + "9".repeat(64)};
    /** Replacements for the inside of a string. */
    private static final String[] BAD_STRINGS = {"\\x", "\\u12", "\\u12G4", "\\'", "\\U0041", "\\", "\\u", "\t",
        "a\nb", "\u0001", "\\uD800", "\\uDC00\\uD800", "\\ud83d\\ude00", "\\u0000", "\\/", "\\b\\f"};
    /** Invalid or surprising UTF-8 inside a string: overlongs, surrogates, truncations, out of range. */
    private static final int[][] BAD_UTF8 = {{0xC0, 0x80}, {0xC1, 0xBF}, {0xE0, 0x80, 0x80}, {0xE0, 0x9F, 0xBF},
        {0xED, 0xA0, 0x80}, {0xED, 0xBF, 0xBF}, {0xF0, 0x80, 0x80, 0x80}, {0xF0, 0x8F, 0xBF, 0xBF},
        {0xF4, 0x90, 0x80, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0x80}, {0xBF}, {0xE2, 0x82}, {0xF0, 0x9F, 0x98},
        {0xC3}, {0xFF}, {0xEF, 0xBF, 0xBF}, {0xF4, 0x8F, 0xBF, 0xBF}, {0xE0, 0xA0, 0x80}, {0xC2, 0x80}};
    /** Whole-document damage: wrong roots, trailing content, missing or extra brackets. */
    private static final String[] PREFIXES = {"", " ", "\uFEFF", "[", "{", "\"s\":", "x", "\u0000", "//c\n", "/*c*/"};
    private static final String[] SUFFIXES = {"", " ", "}", "]", ",", " {}", "{}", "x", " null", "\u0000", "\n\n",
        "[]", " 1", "//", "/**/"};

    private final Random random;

    ChunkMutations(long seed) {
        this.random = new Random(seed);
    }

    /** Every proper prefix of the event. */
    static List<byte[]> truncations(byte[] valid) {
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < valid.length; i++) {
            out.add(Arrays.copyOf(valid, i));
        }
        return out;
    }

    /** One random mutation of the event. */
    byte[] mutate(byte[] valid) {
        return switch (random.nextInt(10)) {
            case 0 -> splice(valid, random.nextInt(valid.length), 1, new byte[0]);
            case 1 -> splice(valid, random.nextInt(valid.length), 0, new byte[] {valid[random.nextInt(valid.length)]});
            case 2 -> splice(valid, random.nextInt(valid.length), 1, new byte[] {interestingByte()});
            case 3 -> splice(valid, random.nextInt(valid.length + 1), 0, new byte[] {interestingByte()});
            case 4 -> replaceToken(valid, "-?[0-9][0-9.eE+-]*", pick(BAD_NUMBERS));
            case 5 -> insertInString(valid, pick(BAD_STRINGS).getBytes(StandardCharsets.UTF_8));
            case 6 -> insertInString(valid, badUtf8());
            case 7 -> concat(pick(PREFIXES), valid, pick(SUFFIXES));
            case 8 -> replaceToken(valid, "[\\]}]", random.nextBoolean() ? ",$0" : "");
            default -> replaceToken(valid, "true|false|null|\\[|\\{", pick(new String[] {"tru", "nul", "fals", "True",
                "nulll", "[,", "{,", "[1,]", "{\"a\":1,}", "{\"a\"}", "{\"a\" 1}", "{1:2}", "{'a':1}", "[}", "{]"}));
        };
    }

    private byte interestingByte() {
        return random.nextBoolean() ? INTERESTING[random.nextInt(INTERESTING.length)] : (byte) RAW[random.nextInt(RAW.length)];
    }

    private byte[] badUtf8() {
        int[] seq = BAD_UTF8[random.nextInt(BAD_UTF8.length)];
        byte[] out = new byte[seq.length];
        for (int i = 0; i < seq.length; i++) {
            out[i] = (byte) seq[i];
        }
        return out;
    }

    /** Replaces one random match of {@code regex} in the (Latin-1 viewed) event. */
    private byte[] replaceToken(byte[] valid, String regex, String replacement) {
        String text = new String(valid, StandardCharsets.ISO_8859_1);
        var matcher = java.util.regex.Pattern.compile(regex).matcher(text);
        List<int[]> spans = new ArrayList<>();
        while (matcher.find()) {
            spans.add(new int[] {matcher.start(), matcher.end()});
        }
        if (spans.isEmpty()) {
            return concat("", valid, pick(SUFFIXES));
        }
        int[] span = spans.get(random.nextInt(spans.size()));
        String actual = replacement.replace("$0", text.substring(span[0], span[1]));
        return splice(valid, span[0], span[1] - span[0], actual.getBytes(StandardCharsets.UTF_8));
    }

    /** Inserts {@code insert} right after a random double quote (often inside a string or key). */
    private byte[] insertInString(byte[] valid, byte[] insert) {
        List<Integer> quotes = new ArrayList<>();
        for (int i = 0; i < valid.length; i++) {
            if (valid[i] == '"') {
                quotes.add(i + 1);
            }
        }
        int at = quotes.isEmpty() ? random.nextInt(valid.length + 1) : quotes.get(random.nextInt(quotes.size()));
        return splice(valid, at, 0, insert);
    }

    private static byte[] splice(byte[] data, int at, int remove, byte[] insert) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(data, 0, at);
        out.writeBytes(insert);
        out.write(data, at + remove, data.length - at - remove);
        return out.toByteArray();
    }

    private static byte[] concat(String prefix, byte[] data, String suffix) {
        return splice(splice(data, 0, 0, bytes(prefix)), prefix.getBytes(StandardCharsets.UTF_8).length + data.length,
                0, bytes(suffix));
    }

    private String pick(String[] options) {
        return options[random.nextInt(options.length)];
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
