package dev.servebench.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * SGLang {@code /generate} stream events: cumulative {@code text} and {@code meta_info.completion_tokens}.
 * An event's tokens are the growth of {@code completion_tokens} since the previous event (SGLang's own
 * rule); the last event's counters are reported as the usage. A kept text is the last non-empty {@code text}
 * (SGLang's {@code generated_text = data["text"]}).
 */
public final class GenerateChunkParser extends ChunkParser {

    private static final byte[] META_INFO = ascii("meta_info");

    private int lastCompletionTokens;
    private boolean sawText;
    private int completionTokens;
    private int promptTokens;
    private boolean textNonEmpty;

    // A scan's effects on the fields above, applied only once the whole event has scanned cleanly so that
    // an event abandoned to Jackson sees exactly the state Jackson alone would have seen.
    private boolean scanSawText;
    private boolean scanTextNonEmpty;
    private long scanCompletionTokens;
    private long scanPromptTokens;

    @Override
    boolean onField(String field, JsonToken value, JsonParser parser, ParsedChunk out) throws IOException {
        if ("text".equals(field)) {
            StringBuilder text = eventText();
            textNonEmpty = text != null ? OutputText.capture(parser, value, text) : nonEmptyString(parser, value);
            sawText = true;
            return true;
        }
        if ("meta_info".equals(field) && value == JsonToken.START_OBJECT) {
            String name;
            while ((name = parser.nextFieldName()) != null) {
                JsonToken v = parser.nextToken();
                if (v == JsonToken.VALUE_NUMBER_INT && "completion_tokens".equals(name)) {
                    completionTokens = parser.getIntValue();
                } else if (v == JsonToken.VALUE_NUMBER_INT && "prompt_tokens".equals(name)) {
                    promptTokens = parser.getIntValue();
                } else {
                    parser.skipChildren();
                }
            }
            return true;
        }
        return false;
    }

    @Override
    boolean scanField(JsonScanner s, int value, ParsedChunk out) {
        if (s.keyIs(CompletionsChunkParser.TEXT)) {
            StringBuilder text = eventText();
            scanTextNonEmpty = text != null ? OutputText.scan(s, text) : s.scalarIsNonEmptyString();
            scanSawText = true;
            return true;
        }
        if (s.keyIs(META_INFO) && value == '{') {
            for (boolean field = s.openObject(); field; field = s.nextKey()) {
                if (s.keyIs(COMPLETION_TOKENS)) {
                    long v = s.intOrAbsent();
                    scanCompletionTokens = v == JsonScanner.ABSENT ? scanCompletionTokens : v;
                } else if (s.keyIs(PROMPT_TOKENS)) {
                    long v = s.intOrAbsent();
                    scanPromptTokens = v == JsonScanner.ABSENT ? scanPromptTokens : v;
                } else {
                    s.skipValue();
                }
            }
            return true;
        }
        return false;
    }

    @Override
    boolean cumulativeText() {
        return true;
    }

    @Override
    void beginScan() {
        scanSawText = false;
        scanCompletionTokens = JsonScanner.ABSENT;
        scanPromptTokens = JsonScanner.ABSENT;
    }

    @Override
    void commitScan() {
        if (scanSawText) {
            sawText = true;
            textNonEmpty = scanTextNonEmpty;
        }
        if (scanCompletionTokens != JsonScanner.ABSENT) {
            completionTokens = (int) scanCompletionTokens;
        }
        if (scanPromptTokens != JsonScanner.ABSENT) {
            promptTokens = (int) scanPromptTokens;
        }
    }

    /** The state carried from event to event, for tests comparing the scanner with Jackson. */
    String streamState() {
        return lastCompletionTokens + "/" + sawText + "/" + completionTokens + "/" + promptTokens + "/" + textNonEmpty;
    }

    @Override
    void afterEvent(ParsedChunk out) {
        if (!sawText) {
            return;
        }
        sawText = false;
        out.kind = ParsedChunk.Kind.CHOICES;
        int delta = completionTokens - lastCompletionTokens;
        out.tokens = textNonEmpty ? Math.max(delta, 0) : 0;
        if (delta > 0) {
            lastCompletionTokens = completionTokens;
        }
        out.usagePromptTokens = promptTokens;
        out.usageCompletionTokens = completionTokens;
    }
}
