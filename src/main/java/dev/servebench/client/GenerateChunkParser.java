package dev.servebench.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * SGLang {@code /generate} stream events: cumulative {@code text} and {@code meta_info.completion_tokens}.
 * An event's tokens are the growth of {@code completion_tokens} since the previous event (SGLang's own
 * rule); the last event's counters are reported as the usage.
 */
public final class GenerateChunkParser extends ChunkParser {

    private int lastCompletionTokens;
    private boolean sawText;
    private int completionTokens;
    private int promptTokens;
    private boolean textNonEmpty;

    @Override
    boolean onField(String field, JsonToken value, JsonParser parser, ParsedChunk out) throws IOException {
        if ("text".equals(field)) {
            textNonEmpty = nonEmptyString(parser, value);
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
