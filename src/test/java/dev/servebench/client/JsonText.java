package dev.servebench.client;

import dev.servebench.client.ChunkPayloads.Member;
import dev.servebench.client.ChunkPayloads.Obj;
import dev.servebench.client.ChunkPayloads.Raw;
import java.util.List;

/** Writes {@link ChunkPayloads}' trees as JSON, with the whitespace and optional escapes it chooses. */
final class JsonText {

    private JsonText() {}

    static void write(Object value, StringBuilder sb, ChunkPayloads fmt) {
        switch (value) {
            case Raw raw -> sb.append(raw.json());
            case String s -> string(s, sb, fmt, true);
            case Obj obj -> {
                sb.append('{').append(fmt.ws());
                List<Member> members = obj.members();
                for (int i = 0; i < members.size(); i++) {
                    if (i > 0) {
                        sb.append(fmt.ws()).append(',').append(fmt.ws());
                    }
                    if (members.get(i).key() instanceof String key) {
                        string(key, sb, fmt, fmt.escapeKeys());
                    } else {
                        write(members.get(i).key(), sb, fmt);
                    }
                    sb.append(fmt.ws()).append(':').append(fmt.ws());
                    write(members.get(i).value(), sb, fmt);
                }
                sb.append(fmt.ws()).append('}');
            }
            case List<?> list -> {
                sb.append('[').append(fmt.ws());
                for (int i = 0; i < list.size(); i++) {
                    if (i > 0) {
                        sb.append(fmt.ws()).append(',').append(fmt.ws());
                    }
                    write(list.get(i), sb, fmt);
                }
                sb.append(fmt.ws()).append(']');
            }
            default -> throw new IllegalArgumentException(value.toString());
        }
    }

    /** Escapes what JSON requires (and lone surrogates, which UTF-8 cannot carry), plus optional extras. */
    static void string(String s, StringBuilder sb, ChunkPayloads fmt, boolean optionalEscapes) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            boolean lone = Character.isSurrogate(c) && !pair;
            if (c == '"' || c == '\\' || c < 0x20 || lone || (optionalEscapes && fmt.escapeNext())) {
                escape(c, sb, fmt);
            } else if (pair) {
                if (optionalEscapes && fmt.escapeNext()) {
                    escape(c, sb, fmt);
                    escape(s.charAt(i + 1), sb, fmt);
                } else {
                    sb.append(c).append(s.charAt(i + 1));
                }
                i++;
            } else {
                sb.append(c);
            }
        }
        sb.append('"');
    }

    private static void escape(char c, StringBuilder sb, ChunkPayloads fmt) {
        String shortForm = switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '/' -> "\\/";
            case '\b' -> "\\b";
            case '\f' -> "\\f";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default -> null;
        };
        if (shortForm != null && fmt.coin()) {
            sb.append(shortForm);
        } else {
            String hex = String.format("%04x", (int) c);
            sb.append("\\u").append(fmt.coin() ? hex : hex.toUpperCase());
        }
    }
}
