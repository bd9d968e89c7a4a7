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

    @Override
    boolean onField(String field, JsonToken value, JsonParser parser, ParsedChunk out) throws IOException {
        if (!"choices".equals(field) || value != JsonToken.START_ARRAY) {
            return false;
        }
        boolean anyChoice = false;
        boolean anyText = false;
        while (parser.nextToken() == JsonToken.START_OBJECT) {
            anyChoice = true;
            String name;
            while ((name = parser.nextFieldName()) != null) {
                JsonToken v = parser.nextToken();
                if (("delta".equals(name) || "message".equals(name)) && v == JsonToken.START_OBJECT) {
                    anyText |= readDelta(parser);
                } else {
                    parser.skipChildren();
                }
            }
        }
        if (anyChoice) {
            out.kind = ParsedChunk.Kind.CHOICES;
            out.tokens = anyText ? 1 : 0;
        }
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
}
