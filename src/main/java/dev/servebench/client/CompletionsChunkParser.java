package dev.servebench.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * {@code /v1/completions} stream events: {@code choices[i].text}. An event with a non-empty
 * {@code choices} array is choice-bearing (vLLM's TTFT trigger); it carries one token when any choice's
 * text is non-empty (SGLang's trigger). A kept text is the first choice's, as SGLang keeps
 * {@code choices[0].text}.
 */
public final class CompletionsChunkParser extends ChunkParser {

    static final byte[] CHOICES = ascii("choices");
    static final byte[] TEXT = ascii("text");

    // Made once: a lambda that reads instance state would otherwise be allocated for every event.
    private final ChoiceFieldReader reader = this::readChoiceField;
    private final ChoiceFieldScanner choiceScanner = this::scanChoiceField;

    @Override
    boolean onField(String field, JsonToken value, JsonParser parser, ParsedChunk out) throws IOException {
        if (!"choices".equals(field) || value != JsonToken.START_ARRAY) {
            return false;
        }
        clearText(); // a later "choices" replaces an earlier one, as in Python's json
        readChoices(parser, out, reader);
        return true;
    }

    private boolean readChoiceField(String name, JsonToken v, JsonParser p, boolean first) throws IOException {
        if ("text".equals(name)) {
            StringBuilder text = eventText();
            return first && text != null ? OutputText.capture(p, v, text) : nonEmptyString(p, v);
        }
        p.skipChildren();
        return false;
    }

    @Override
    boolean scanField(JsonScanner s, int value, ParsedChunk out) {
        if (!s.keyIs(CHOICES) || value != '[') {
            return false;
        }
        clearText();
        scanChoices(s, out, choiceScanner);
        return true;
    }

    private boolean scanChoiceField(JsonScanner scanner, boolean first) {
        if (scanner.keyIs(TEXT)) {
            StringBuilder text = eventText();
            return first && text != null ? OutputText.scan(scanner, text) : scanner.scalarIsNonEmptyString();
        }
        scanner.skipValue();
        return false;
    }

    private void clearText() {
        StringBuilder text = eventText();
        if (text != null) {
            text.setLength(0);
        }
    }
}
