package dev.servebench.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * {@code /v1/chat/completions} stream events: {@code choices[i].delta}. Content and reasoning deltas
 * ({@code content}, {@code reasoning_content}, {@code reasoning}) count as one token when non-empty; the
 * role-only first chunk is choice-bearing with zero tokens.
 */
public final class ChatChunkParser extends ChunkParser {

    private static final byte[] DELTA = ascii("delta");
    private static final byte[] MESSAGE = ascii("message");
    private static final byte[] CONTENT = ascii("content");
    private static final byte[] REASONING_CONTENT = ascii("reasoning_content");
    private static final byte[] REASONING = ascii("reasoning");

    @Override
    boolean onField(String field, JsonToken value, JsonParser parser, ParsedChunk out) throws IOException {
        if (!"choices".equals(field) || value != JsonToken.START_ARRAY) {
            return false;
        }
        readChoices(parser, out, (name, v, p) -> {
            if (("delta".equals(name) || "message".equals(name)) && v == JsonToken.START_OBJECT) {
                return readDelta(p);
            }
            p.skipChildren();
            return false;
        });
        return true;
    }

    private static boolean readDelta(JsonParser parser) throws IOException {
        boolean text = false;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken v = parser.nextToken();
            if ("content".equals(name) || "reasoning_content".equals(name) || "reasoning".equals(name)) {
                text |= nonEmptyString(parser, v);
            } else {
                parser.skipChildren();
            }
        }
        return text;
    }

    @Override
    boolean scanField(JsonScanner s, int value, ParsedChunk out) {
        if (!s.keyIs(CompletionsChunkParser.CHOICES) || value != '[') {
            return false;
        }
        scanChoices(s, out, scanner -> {
            if ((scanner.keyIs(DELTA) || scanner.keyIs(MESSAGE)) && scanner.peek() == '{') {
                return scanDelta(scanner);
            }
            scanner.skipValue();
            return false;
        });
        return true;
    }

    private static boolean scanDelta(JsonScanner s) {
        boolean text = false;
        for (boolean field = s.openObject(); field; field = s.nextKey()) {
            if (s.keyIs(CONTENT) || s.keyIs(REASONING_CONTENT) || s.keyIs(REASONING)) {
                text |= s.scalarIsNonEmptyString();
            } else {
                s.skipValue();
            }
        }
        return text;
    }
}
