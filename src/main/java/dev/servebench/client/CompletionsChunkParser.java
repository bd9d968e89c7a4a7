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
        readChoices(parser, out, (name, v, p) -> {
            if ("text".equals(name)) {
                return nonEmptyString(p, v);
            }
            p.skipChildren();
            return false;
        });
        return true;
    }

    @Override
    boolean scanField(JsonScanner s, int value, ParsedChunk out) {
        if (!s.keyIs(CHOICES) || value != '[') {
            return false;
        }
        scanChoices(s, out, scanner -> {
            if (scanner.keyIs(TEXT)) {
                return scanner.scalarIsNonEmptyString();
            }
            scanner.skipValue();
            return false;
        });
        return true;
    }
}
