package dev.servebench.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The scanner path of {@link ChunkParser#parse} against the pure-Jackson reference
 * ({@link ChunkParser#parseWithJackson}): every field of the result, whether it throws and with exactly
 * which message, /generate's cross-event state and the kept generated text (parsers that keep it run beside
 * parsers that do not), for generated valid events and mutations of them.
 */
class ChunkParserDifferentialTest {

    private static final long SEED = 20240611L;

    /** Runs each event through a scanner-backed and a Jackson-only parser of every endpoint. */
    private static final class Differ {
        private final List<ChunkParser[]> pairs = new ArrayList<>();
        private final Random padding = new Random(SEED);
        int cases;
        int rejected;

        Differ() {
            for (Supplier<ChunkParser> kind : List.<Supplier<ChunkParser>>of(
                    CompletionsChunkParser::new, ChatChunkParser::new, GenerateChunkParser::new)) {
                pairs.add(new ChunkParser[] {kind.get(), kind.get()});
                ChunkParser[] keeping = {kind.get(), kind.get()};
                keeping[0].keepOutputText();
                keeping[1].keepOutputText();
                pairs.add(keeping);
            }
        }

        void check(byte[] payload) {
            // Padding that would complete a truncated event catches any read past the end.
            String[] pads = {"", "}", "\"}", "e}", "0}", "]}", "\"}]}", "ue}", "{", " "};
            byte[] before = pads[padding.nextInt(pads.length)].getBytes(StandardCharsets.UTF_8);
            byte[] after = pads[padding.nextInt(pads.length)].getBytes(StandardCharsets.UTF_8);
            byte[] buffer = new byte[before.length + payload.length + after.length];
            System.arraycopy(before, 0, buffer, 0, before.length);
            System.arraycopy(payload, 0, buffer, before.length, payload.length);
            System.arraycopy(after, 0, buffer, before.length + payload.length, after.length);
            for (ChunkParser[] pair : pairs) {
                String fast = outcome(pair[0], buffer, before.length, payload.length, false);
                String reference = outcome(pair[1], buffer, before.length, payload.length, true);
                if (reference.startsWith("threw")) {
                    rejected++;
                }
                assertThat(fast).as("%s on %s", pair[0].getClass().getSimpleName(), show(payload))
                        .isEqualTo(reference);
                cases++;
            }
        }

        int fallbacks() {
            return pairs.stream().mapToInt(p -> p[0].jacksonFallbacks).sum();
        }

        /** Characters of generated text the text-keeping parsers hold, so a test can show text was compared. */
        long keptChars() {
            return pairs.stream().filter(p -> p[1].outputTextSoFar() != null)
                    .mapToLong(p -> p[1].outputTextSoFar().length()).sum();
        }

        private static String outcome(ChunkParser parser, byte[] data, int offset, int length, boolean jackson) {
            ParsedChunk out = new ParsedChunk();
            String thrown = "";
            try {
                if (jackson) {
                    parser.parseWithJackson(data, offset, length, out);
                } else {
                    parser.parse(data, offset, length, out);
                }
            } catch (ChunkFormatException e) {
                thrown = "threw " + e.getMessage();
            }
            String state = parser instanceof GenerateChunkParser g ? g.streamState() : "";
            return thrown + " | " + out.kind + " " + out.tokens + " " + out.usagePromptTokens + " "
                    + out.usageCompletionTokens + " " + out.errorMessage + " | " + state + " | text "
                    + parser.outputTextSoFar();
        }
    }

    @Test
    void generatedEventsMatchJackson() {
        Differ differ = new Differ();
        ChunkPayloads payloads = new ChunkPayloads(SEED);
        for (int i = 0; i < 6000; i++) {
            differ.check(payloads.next().getBytes(StandardCharsets.UTF_8));
        }
        assertThat(differ.rejected).as("valid events Jackson rejects (number length)").isLessThan(differ.cases / 20);
        // The comparison proves nothing if the scanner always declines: it must take most valid events.
        assertThat(differ.fallbacks()).isLessThan(differ.cases / 4);
        assertThat(differ.keptChars()).as("generated text compared").isGreaterThan(5_000);
        System.out.printf("generated: %d cases, %d left to Jackson%n", differ.cases, differ.fallbacks());
    }

    @Test
    void mutatedEventsMatchJackson() {
        Differ differ = new Differ();
        ChunkPayloads payloads = new ChunkPayloads(SEED + 1);
        ChunkMutations mutations = new ChunkMutations(SEED + 2);
        for (int i = 0; i < 1500; i++) {
            byte[] valid = payloads.next().getBytes(StandardCharsets.UTF_8);
            if (i < 40) {
                ChunkMutations.truncations(valid).forEach(differ::check);
            }
            for (int m = 0; m < 8; m++) {
                differ.check(mutations.mutate(valid));
            }
        }
        assertThat(differ.rejected).isGreaterThan(differ.cases / 2);
        System.out.printf("mutated: %d cases, %d rejected by Jackson, %d left to Jackson%n",
                differ.cases, differ.rejected, differ.fallbacks());
    }

    @Test
    void edgeCasesMatchJackson() {
        Differ differ = new Differ();
        List<String> cases = new ArrayList<>(List.of("", " ", "[DONE]", " [DONE] ", "[DONE]x", "{}", " {} ", "{} ",
                "\t\r\n{}\t\r\n", "[]", "\"s\"", "1", "null", "true", "{", "}", "{\"a\"}", "{\"a\":}", "{,}",
                "{\"a\":1,}", "{\"a\":[1,]}", "{\"a\":1}{}", "{\"a\":1},", "{\"a\":1} x", "{\"a\":1}\u0000",
                "\uFEFF{}", "{\"\":1}", "{\"a\":1,\"a\":2}", "{\"usage\":{\"prompt_tokens\":-0,\"completion_tokens\":-5}}",
                "{\"text\":{},\"meta_info\":{\"completion_tokens\":3}}", "{\"text\":[]}", "{\"text\":[1]}",
                "{\"choices\":[1,{\"text\":\"a\"}]}", "{\"choices\":[{\"text\":\"a\"},null]}", "{\"choices\":[[]]}",
                "{\"choices\":[{\"text\":{\"error\":\"x\"}}]}", "{\"choices\":[{\"delta\":{\"content\":[\"x\"]}}]}",
                "{\"error\":\"x\",\"choices\":[{\"text\":\"a\",\"delta\":{\"content\":\"b\"}}],\"text\":\"c\"}",
                "{\"error\":{\"message\":\"m\",\"type\":\"t\"},\"error\":null}", "{\"error\":{}}", "{\"error\":[1]}",
                "{\"error\":1.5e3}", "{\"error\":-0}", "{\"error\":false}", "{\"error\":{\"message\":\"a\\nb\"}}",
                "{\"error\":\"日本\"}", "{\"error\":{\"type\":\"T\",\"message\":7}}", "{\"te\\u0078t\":\"x\"}",
                "{\"choices\":[{\"te\\u0078t\":\"x\"}]}", "{\"choices\":[{\"text\":\"\\u0000\"}]}",
                "{\"choices\":[{\"text\":\"\\uD800\"}]}", "{\"choices\":[{\"text\":\"\\uDC00\\uD800\"}]}"));
        for (String n : new String[] {"2147483647", "2147483648", "-2147483648", "-2147483649", "4294967296",
            "99999999999999999999", "1e2", "1.0", "-0", "0", "1" + "0".repeat(63), "1" + "0".repeat(64),
            "1".repeat(1000), "1".repeat(1001), "0.".concat("1".repeat(999)), "\"16\"", "null", "true", "[16]"}) {
            cases.add("{\"usage\":{\"prompt_tokens\":" + n + ",\"completion_tokens\":1}}");
            cases.add("{\"text\":\"a\",\"meta_info\":{\"completion_tokens\":" + n + ",\"prompt_tokens\":" + n + "}}");
            cases.add("{\"other\":" + n + ",\"choices\":[{\"text\":\"\"}]}");
        }
        for (int depth = 60; depth <= 67; depth++) {
            cases.add("{\"x\":" + "[".repeat(depth - 1) + "]".repeat(depth - 1) + ",\"choices\":[{\"text\":\"a\"}]}");
            cases.add("{\"x\":" + "{\"y\":".repeat(depth - 1) + "1" + "}".repeat(depth) + "");
            cases.add("{\"choices\":[{\"text\":\"a\",\"x\":" + "[".repeat(depth - 3) + "]".repeat(depth - 3) + "}]}");
        }
        for (String s : new String[] {"\u007f", "\u0080", "\u07ff", "\u0800", "\uffff", "\ufffe", "\ud7ff",
            "\ue000", "\ud83d\ude00", "\udbff\udfff"}) {
            cases.add("{\"choices\":[{\"text\":\"" + s + "\"}],\"" + s + "\":1}");
        }
        cases.forEach(c -> differ.check(c.getBytes(StandardCharsets.UTF_8)));
        for (int[] utf8 : new int[][] {{0xC0, 0x80}, {0xED, 0xA0, 0x80}, {0xF4, 0x90, 0x80, 0x80}, {0x80},
            {0xE2, 0x82}, {0xF0, 0x9F, 0x98, 0x80}, {0xF5, 0x80, 0x80, 0x80}, {0xE0, 0x9F, 0xBF}, {0xC2}}) {
            for (String template : new String[] {"{\"error\":\"%s\"}", "{\"choices\":[{\"text\":\"%s\"}]}",
                "{\"%s\":1}", "{\"x\":\"%s\"}", "{\"x\":1%s}"}) {
                differ.check(withRawBytes(template, utf8));
            }
        }
        System.out.printf("edge cases: %d cases, %d left to Jackson%n", differ.cases, differ.fallbacks());
    }

    @Test
    void typicalVllmChunksNeverFallBack() {
        Differ differ = new Differ();
        for (int i = 0; i < 50; i++) {
            differ.check(ChunkParserTestData.completion(i));
            differ.check(ChunkParserTestData.chat(i));
            differ.check(ChunkParserTestData.usage(i));
            differ.check(ChunkParserTestData.generate(i));
        }
        assertThat(differ.fallbacks()).isZero();
        assertThat(differ.keptChars()).isPositive();
    }

    private static byte[] withRawBytes(String template, int[] raw) {
        String[] parts = template.split("%s", -1);
        byte[] head = parts[0].getBytes(StandardCharsets.UTF_8);
        byte[] tail = parts[1].getBytes(StandardCharsets.UTF_8);
        byte[] out = new byte[head.length + raw.length + tail.length];
        System.arraycopy(head, 0, out, 0, head.length);
        for (int i = 0; i < raw.length; i++) {
            out[head.length + i] = (byte) raw[i];
        }
        System.arraycopy(tail, 0, out, head.length + raw.length, tail.length);
        return out;
    }

    private static String show(byte[] payload) {
        StringBuilder sb = new StringBuilder();
        for (byte b : payload) {
            int c = b & 0xFF;
            sb.append(c >= 0x20 && c < 0x7F ? String.valueOf((char) c) : String.format("\\x%02x", c));
        }
        return sb.toString();
    }
}
