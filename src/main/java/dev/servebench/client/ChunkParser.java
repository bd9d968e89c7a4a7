package dev.servebench.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Maps one SSE data payload of an endpoint's stream to a {@link ParsedChunk}. One instance per exchange;
 * implementations keep per-stream state (e.g. /generate's cumulative token count).
 *
 * <p>Parsing uses Jackson's streaming parser and never materialises the generated text: only whether it
 * is empty matters for timing, and token counts come from the server's counters where it sends them.
 */
public abstract sealed class ChunkParser permits CompletionsChunkParser, ChatChunkParser, GenerateChunkParser {

    static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
            .build();

    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    /** Parses {@code length} bytes of {@code data} from {@code offset} into {@code out}. */
    public final void parse(byte[] data, int offset, int length, ParsedChunk out) throws ChunkFormatException {
        out.reset();
        if (isDone(data, offset, length)) {
            out.kind = ParsedChunk.Kind.DONE;
            return;
        }
        try (JsonParser parser = JSON.createParser(data, offset, length)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new ChunkFormatException("expected a JSON object, got: " + preview(data, offset, length));
            }
            String field;
            while ((field = parser.nextFieldName()) != null) {
                JsonToken value = parser.nextToken();
                if ("error".equals(field) && value != JsonToken.VALUE_NULL) {
                    out.kind = ParsedChunk.Kind.ERROR;
                    out.errorMessage = errorText(parser, value);
                } else if ("usage".equals(field) && value == JsonToken.START_OBJECT) {
                    readUsage(parser, out);
                } else if (!onField(field, value, parser, out)) {
                    parser.skipChildren();
                }
            }
            if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
                throw new ChunkFormatException("trailing content after the JSON object: " + preview(data, offset, length));
            }
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new ChunkFormatException("invalid JSON in stream event (" + e.getOriginalMessage() + "): "
                    + preview(data, offset, length), e);
        } catch (IOException e) {
            throw new ChunkFormatException("unreadable stream event: " + preview(data, offset, length), e);
        }
        if (out.kind != ParsedChunk.Kind.ERROR) {
            afterEvent(out);
        }
    }

    /**
     * Handles a top-level field; returns false to have it skipped. The parser is positioned on
     * {@code value}; an implementation that consumes a container must consume it fully.
     */
    abstract boolean onField(String field, JsonToken value, JsonParser parser, ParsedChunk out) throws IOException;

    /** Called after a well-formed non-error event; default does nothing. */
    void afterEvent(ParsedChunk out) {}

    static boolean isDone(byte[] data, int offset, int length) {
        int from = offset;
        int to = offset + length;
        while (from < to && data[from] == ' ') {
            from++;
        }
        while (to > from && (data[to - 1] == ' ')) {
            to--;
        }
        if (to - from != DONE.length) {
            return false;
        }
        for (int i = 0; i < DONE.length; i++) {
            if (data[from + i] != DONE[i]) {
                return false;
            }
        }
        return true;
    }

    static void readUsage(JsonParser parser, ParsedChunk out) throws IOException {
        String field;
        while ((field = parser.nextFieldName()) != null) {
            JsonToken value = parser.nextToken();
            if (value == JsonToken.VALUE_NUMBER_INT && "prompt_tokens".equals(field)) {
                out.usagePromptTokens = parser.getIntValue();
            } else if (value == JsonToken.VALUE_NUMBER_INT && "completion_tokens".equals(field)) {
                out.usageCompletionTokens = parser.getIntValue();
            } else {
                parser.skipChildren();
            }
        }
    }

    /** Whether the current string value is non-empty, without building the String. */
    static boolean nonEmptyString(JsonParser parser, JsonToken value) throws IOException {
        return value == JsonToken.VALUE_STRING && parser.getTextLength() > 0;
    }

    private static String errorText(JsonParser parser, JsonToken value) throws IOException {
        if (value == JsonToken.VALUE_STRING) {
            return parser.getText();
        }
        if (value != JsonToken.START_OBJECT) {
            parser.skipChildren();
            return "error: " + value;
        }
        String message = null;
        String type = null;
        String field;
        while ((field = parser.nextFieldName()) != null) {
            JsonToken v = parser.nextToken();
            if ("message".equals(field) && v == JsonToken.VALUE_STRING) {
                message = parser.getText();
            } else if ("type".equals(field) && v == JsonToken.VALUE_STRING) {
                type = parser.getText();
            } else {
                parser.skipChildren();
            }
        }
        return (type == null ? "" : type + ": ") + (message == null ? "(no message)" : message);
    }

    static String preview(byte[] data, int offset, int length) {
        int shown = Math.min(length, 200);
        String text = new String(data, offset, shown, StandardCharsets.UTF_8);
        return length > shown ? text + "…(" + length + " bytes)" : text;
    }
}
