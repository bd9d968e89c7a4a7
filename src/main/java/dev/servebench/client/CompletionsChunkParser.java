package dev.servebench.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * {@code /v1/completions} stream events: {@code choices[i].text}. An event with a non-empty
 * {@code choices} array is choice-bearing (vLLM's TTFT trigger); it carries one token when any choice's
 * text is non-empty (SGLang's trigger).
 */
public final class CompletionsChunkParser extends ChunkParser {

    static final byte[] CHOICES = ascii("choices");
    static final byte[] TEXT = ascii("text");

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
                if ("text".equals(name)) {
                    anyText |= nonEmptyString(parser, v);
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

    @Override
    boolean scanField(JsonScanner s, int value, ParsedChunk out) {
        if (!s.keyIs(CHOICES) || value != '[') {
            return false;
        }
        boolean anyChoice = false;
        boolean anyText = false;
        for (boolean more = s.openArray(); more; more = s.nextElement()) {
            if (s.peek() != '{') {
                throw JsonScanner.UNSUPPORTED; // Jackson stops there without skipping the rest; let it decide
            }
            anyChoice = true;
            for (boolean field = s.openObject(); field; field = s.nextKey()) {
                if (s.keyIs(TEXT)) {
                    anyText |= s.scalarIsNonEmptyString();
                } else {
                    s.skipValue();
                }
            }
        }
        if (anyChoice) {
            out.kind = ParsedChunk.Kind.CHOICES;
            out.tokens = anyText ? 1 : 0;
        }
        return true;
    }
}
