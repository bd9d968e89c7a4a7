package dev.servebench.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * {@code /v1/chat/completions} stream events: {@code choices[i].delta}. Content and reasoning deltas
 * ({@code content}, {@code reasoning_content}, {@code reasoning}) count as one token when non-empty; the
 * role-only first chunk is choice-bearing with zero tokens. A kept text is SGLang's for the first choice:
 * {@code (reasoning_content or reasoning or "") + (content or "")}, so a server that sends both reasoning
 * aliases is not counted twice.
 */
public final class ChatChunkParser extends ChunkParser {

    private static final byte[] DELTA = ascii("delta");
    private static final byte[] MESSAGE = ascii("message");
    private static final byte[] CONTENT = ascii("content");
    private static final byte[] REASONING_CONTENT = ascii("reasoning_content");
    private static final byte[] REASONING = ascii("reasoning");

    private final ChoiceFieldReader reader = this::readChoiceField;
    private final ChoiceFieldScanner choiceScanner = this::scanChoiceField;
    // The first choice's three text fields, combined into the event's text once its delta is read.
    private final StringBuilder content = new StringBuilder();
    private final StringBuilder reasoningContent = new StringBuilder();
    private final StringBuilder reasoning = new StringBuilder();

    @Override
    boolean onField(String field, JsonToken value, JsonParser parser, ParsedChunk out) throws IOException {
        if (!"choices".equals(field) || value != JsonToken.START_ARRAY) {
            return false;
        }
        clearText();
        readChoices(parser, out, reader);
        return true;
    }

    private boolean readChoiceField(String name, JsonToken v, JsonParser p, boolean first) throws IOException {
        if (("delta".equals(name) || "message".equals(name)) && v == JsonToken.START_OBJECT) {
            return readDelta(p, first && eventText() != null);
        }
        p.skipChildren();
        return false;
    }

    private boolean readDelta(JsonParser parser, boolean keep) throws IOException {
        clearFields();
        boolean text = false;
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken v = parser.nextToken();
            StringBuilder field = textField(name);
            if (field != null) {
                text |= keep ? OutputText.capture(parser, v, field) : nonEmptyString(parser, v);
            } else {
                parser.skipChildren();
            }
        }
        combine(keep);
        return text;
    }

    private StringBuilder textField(String name) {
        return switch (name) {
            case "content" -> content;
            case "reasoning_content" -> reasoningContent;
            case "reasoning" -> reasoning;
            default -> null;
        };
    }

    @Override
    boolean scanField(JsonScanner s, int value, ParsedChunk out) {
        if (!s.keyIs(CompletionsChunkParser.CHOICES) || value != '[') {
            return false;
        }
        clearText();
        scanChoices(s, out, choiceScanner);
        return true;
    }

    private boolean scanChoiceField(JsonScanner scanner, boolean first) {
        if ((scanner.keyIs(DELTA) || scanner.keyIs(MESSAGE)) && scanner.peek() == '{') {
            return scanDelta(scanner, first && eventText() != null);
        }
        scanner.skipValue();
        return false;
    }

    private boolean scanDelta(JsonScanner s, boolean keep) {
        clearFields();
        boolean text = false;
        for (boolean more = s.openObject(); more; more = s.nextKey()) {
            StringBuilder field = s.keyIs(CONTENT) ? content : s.keyIs(REASONING_CONTENT) ? reasoningContent
                    : s.keyIs(REASONING) ? reasoning : null;
            if (field != null) {
                text |= keep ? OutputText.scan(s, field) : s.scalarIsNonEmptyString();
            } else {
                s.skipValue();
            }
        }
        combine(keep);
        return text;
    }

    private void clearFields() {
        content.setLength(0);
        reasoningContent.setLength(0);
        reasoning.setLength(0);
    }

    /** The first choice's text: SGLang's {@code (reasoning_content or reasoning or "") + (content or "")}. */
    private void combine(boolean keep) {
        if (keep) {
            StringBuilder text = eventText();
            text.setLength(0);
            text.append(reasoningContent.isEmpty() ? reasoning : reasoningContent).append(content);
        }
    }

    private void clearText() {
        StringBuilder text = eventText();
        if (text != null) {
            text.setLength(0);
        }
    }
}
