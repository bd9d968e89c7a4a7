package dev.servebench.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random but reproducible stream events for the three endpoints, written with random formatting: field
 * order, whitespace, optional escapes in values and keys, unknown fields of every JSON type, duplicate
 * keys, and the interesting field names planted in unexpected places with unexpected value types.
 */
final class ChunkPayloads {

    /** A JSON token written verbatim: numbers, literals, or a key already spelt with escapes. */
    record Raw(String json) {}

    record Member(Object key, Object value) {}

    record Obj(List<Member> members) {}

    static final Raw NULL = new Raw("null");

    private static final String[] INTERESTING_KEYS = {"text", "choices", "usage", "error", "delta", "message",
        "content", "reasoning", "reasoning_content", "meta_info", "prompt_tokens", "completion_tokens", "type"};
    private static final String[] STRINGS = {"", " t12", "hello world", "ü", "日本語", "😀", " 🤖 ok", "\n", "\t",
        "\"quoted\"", "back\\slash", "\u0000", "\u001f", "\u007f", "\u2028", "\ud800", "\udc00x", "a/b", "\ud83d"};
    private static final String[] NUMBERS = {"0", "-0", "7", "-7", "16", "1024", "123456", "2147483647",
        "2147483648", "-2147483648", "-2147483649", "9999999999", "12345678901234567890", "1.5", "-0.0", "0.25",
        "1e3", "1E3", "1e+3", "1e-3", "-1.5E-7", "0e0", "1.0", "5E+0", "1" + "0".repeat(70)};
    private static final String[] WHITESPACE = {"", "", "", "", " ", "\n", "\t", "\r\n", "  "};

    private final Random random;
    private boolean formatted;
    private double escapeRate;
    private boolean escapeKeys;
    private int generateTokens;

    ChunkPayloads(long seed) {
        this.random = new Random(seed);
    }

    /** A completions, chat or /generate event, chosen at random, serialised. */
    String next() {
        formatted = random.nextInt(4) == 0;
        escapeRate = random.nextInt(5) == 0 ? 0.15 : 0;
        // Escaped keys send the whole event to Jackson, so they are rarer than escaped values.
        escapeKeys = escapeRate > 0 && random.nextInt(4) == 0;
        return write(switch (random.nextInt(3)) {
            case 0 -> completions();
            case 1 -> chat();
            default -> generate();
        });
    }

    Obj completions() {
        List<Member> m = header("text_completion");
        List<Object> choices = new ArrayList<>();
        for (int i = 0, n = choiceCount(); i < n; i++) {
            List<Member> c = new ArrayList<>(List.of(new Member("index", new Raw(Integer.toString(i))),
                    new Member("text", textValue()), new Member("logprobs", NULL), new Member("finish_reason", finish())));
            choices.add(decorate(c));
        }
        m.add(new Member("choices", choices));
        return tail(m);
    }

    Obj chat() {
        List<Member> m = header("chat.completion.chunk");
        List<Object> choices = new ArrayList<>();
        for (int i = 0, n = choiceCount(); i < n; i++) {
            List<Member> delta = new ArrayList<>();
            maybe(delta, 0.3, "role", "assistant");
            maybe(delta, 0.8, "content", textValue());
            maybe(delta, 0.2, "reasoning_content", textValue());
            maybe(delta, 0.1, "reasoning", textValue());
            maybe(delta, 0.05, "tool_calls", value(2));
            Object body = random.nextInt(20) == 0 ? value(2) : decorate(delta);
            choices.add(decorate(new ArrayList<>(List.of(new Member("index", new Raw(Integer.toString(i))),
                    new Member(random.nextInt(5) == 0 ? "message" : "delta", body),
                    new Member("logprobs", NULL), new Member("finish_reason", finish())))));
        }
        m.add(new Member("choices", choices));
        return tail(m);
    }

    Obj generate() {
        generateTokens += random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(3);
        if (random.nextInt(50) == 0) {
            generateTokens = random.nextInt(5); // a restarted or misbehaving stream
        }
        List<Member> meta = new ArrayList<>();
        maybe(meta, 0.9, "id", "gen-" + random.nextInt(100));
        maybe(meta, 0.3, "finish_reason", random.nextBoolean() ? NULL : value(1));
        maybe(meta, 0.9, "prompt_tokens", random.nextInt(10) == 0 ? number() : new Raw("16"));
        maybe(meta, 0.9, "completion_tokens",
                random.nextInt(10) == 0 ? number() : new Raw(Integer.toString(generateTokens)));
        maybe(meta, 0.3, "cached_tokens", new Raw("0"));
        maybe(meta, 0.2, "e2e_latency", new Raw("0.0123"));
        List<Member> m = new ArrayList<>();
        maybe(m, 0.95, "text", textValue());
        maybe(m, 0.95, "meta_info", random.nextInt(30) == 0 ? value(2) : decorate(meta));
        maybe(m, 0.5, "index", new Raw("0"));
        return tail(m);
    }

    private List<Member> header(String object) {
        List<Member> m = new ArrayList<>();
        maybe(m, 0.9, "id", "cmpl-" + random.nextInt(1000));
        maybe(m, 0.9, "object", object);
        maybe(m, 0.9, "created", new Raw("1700000000"));
        maybe(m, 0.9, "model", "meta-llama/Llama-3.1-8B-Instruct");
        return m;
    }

    private Obj tail(List<Member> m) {
        if (random.nextInt(5) == 0) {
            m.add(new Member("usage", random.nextInt(4) == 0 ? NULL : usage()));
        }
        if (random.nextInt(20) == 0) {
            m.add(new Member("error", errorValue()));
        }
        return decorate(m);
    }

    /** Shuffles the members and adds unknown fields and, sometimes, a duplicate key. */
    private Obj decorate(List<Member> m) {
        for (int i = random.nextInt(3); i > 0; i--) {
            if (random.nextInt(3) == 0) {
                m.add(new Member(key(), value(3)));
            }
        }
        if (!m.isEmpty() && random.nextInt(25) == 0) {
            m.add(new Member(m.get(random.nextInt(m.size())).key(), value(2)));
        }
        if (random.nextInt(3) == 0) {
            Collections.shuffle(m, random);
        }
        return new Obj(m);
    }

    private Obj usage() {
        List<Member> m = new ArrayList<>();
        maybe(m, 0.95, "prompt_tokens", random.nextInt(5) == 0 ? number() : new Raw("16"));
        maybe(m, 0.95, "completion_tokens", random.nextInt(5) == 0 ? value(1) : new Raw("1024"));
        maybe(m, 0.8, "total_tokens", new Raw("1040"));
        return decorate(m);
    }

    private Object errorValue() {
        return switch (random.nextInt(6)) {
            case 0 -> string();
            case 1, 2 -> {
                List<Member> m = new ArrayList<>();
                maybe(m, 0.8, "message", random.nextInt(5) == 0 ? value(1) : string());
                maybe(m, 0.7, "type", random.nextInt(5) == 0 ? value(1) : "BadRequestError");
                maybe(m, 0.5, "code", new Raw("400"));
                yield decorate(m);
            }
            default -> value(2);
        };
    }

    private Object textValue() {
        int r = random.nextInt(100);
        return r < 70 ? string() : r < 85 ? "" : r < 90 ? NULL : r < 96 ? scalar() : value(2);
    }

    private Object finish() {
        return random.nextInt(5) == 0 ? (random.nextBoolean() ? "stop" : value(1)) : NULL;
    }

    private int choiceCount() {
        int r = random.nextInt(10);
        return r < 7 ? 1 : r < 9 ? 0 : 2 + random.nextInt(2);
    }

    private void maybe(List<Member> m, double p, String key, Object value) {
        if (random.nextDouble() < p) {
            m.add(new Member(key, value));
        }
    }

    Object value(int depth) {
        int r = random.nextInt(depth > 0 ? 10 : 7);
        return switch (r) {
            case 0, 1, 2 -> string();
            case 3, 4 -> number();
            case 5 -> new Raw(random.nextBoolean() ? "true" : "false");
            case 6 -> NULL;
            case 7, 8 -> {
                List<Member> m = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    m.add(new Member(key(), value(depth - 1)));
                }
                yield new Obj(m);
            }
            default -> {
                List<Object> a = new ArrayList<>();
                for (int i = random.nextInt(4); i > 0; i--) {
                    a.add(value(depth - 1));
                }
                yield a;
            }
        };
    }

    private Object scalar() {
        return switch (random.nextInt(3)) {
            case 0 -> number();
            case 1 -> NULL;
            default -> new Raw(random.nextBoolean() ? "true" : "false");
        };
    }

    Raw number() {
        return new Raw(NUMBERS[random.nextInt(NUMBERS.length)]);
    }

    String string() {
        StringBuilder s = new StringBuilder();
        for (int i = random.nextInt(4); i > 0; i--) {
            s.append(STRINGS[random.nextInt(STRINGS.length)]);
        }
        return s.toString();
    }

    private Object key() {
        int r = random.nextInt(20);
        if (r == 0) {
            return new Raw("\"te\\u0078t\""); // the key "text", spelt so that only a real JSON parser sees it
        }
        if (r == 1) {
            return random.nextBoolean() ? "" : "ключ";
        }
        return r < 8 ? INTERESTING_KEYS[random.nextInt(INTERESTING_KEYS.length)] : "x" + random.nextInt(50);
    }

    String write(Object value) {
        StringBuilder sb = new StringBuilder();
        sb.append(ws());
        JsonText.write(value, sb, this);
        return sb.append(ws()).toString();
    }

    String ws() {
        return formatted ? WHITESPACE[random.nextInt(WHITESPACE.length)] : "";
    }

    boolean escapeNext() {
        return escapeRate > 0 && random.nextDouble() < escapeRate;
    }

    boolean escapeKeys() {
        return escapeKeys;
    }

    boolean coin() {
        return random.nextBoolean();
    }
}
