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
 * <p>Parsing never materialises the generated text unless asked ({@link #keepOutputText()}, for a run that
 * re-counts it with a client tokenizer): only whether it is empty matters for timing, and token counts come
 * from the server's counters where it sends them. Events go through the allocation-free {@link JsonScanner}
 * first; Jackson's streaming parser handles whatever the scanner declines, and is the reference the scanner
 * is tested against, the kept text included.
 *
 * <p>The kept text is SGLang's {@code generated_text}: the OpenAI paths append each event's text of the first
 * choice, /generate keeps the last non-empty cumulative {@code text}. Each path collects an event's text in a
 * scratch buffer that is applied only once the event parsed cleanly, so an event the scanner abandons to
 * Jackson is counted once.
 */
public abstract sealed class ChunkParser permits CompletionsChunkParser, ChatChunkParser, GenerateChunkParser {

    static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build())
            .build();

    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);

    /**
     * Above this the scanner is not tried: it keeps every string far below Jackson's 20M-char limit, and
     * events this large are not the hot path anyway.
     */
    private static final int MAX_SCANNED_LENGTH = 1 << 20;

    static final byte[] PROMPT_TOKENS = ascii("prompt_tokens");
    static final byte[] COMPLETION_TOKENS = ascii("completion_tokens");
    private static final byte[] ERROR = ascii("error");
    private static final byte[] USAGE = ascii("usage");
    private static final byte[] MESSAGE = ascii("message");
    private static final byte[] TYPE = ascii("type");

    private final JsonScanner scanner = new JsonScanner();

    /** Events the scanner left to Jackson; tests read it to prove the fast path is really taken. */
    int jacksonFallbacks;

    /** The generated text, or null when the exchange does not keep it. */
    private OutputText text;

    /**
     * Keeps the generated text from now on (call before the first event): costs a copy of every text delta, so
     * only a run with a client tokenizer asks for it.
     */
    public final void keepOutputText() {
        text = new OutputText(cumulativeText());
    }

    /**
     * The generated text kept so far, and the end of keeping it: the buffers are dropped, so the text lives no
     * longer than its request. Null when the text was not kept.
     */
    public final String takeOutputText() {
        String kept = text == null ? null : text.soFar();
        text = null;
        return kept;
    }

    /** The text kept so far, without dropping it (tests). */
    final String outputTextSoFar() {
        return text == null ? null : text.soFar();
    }

    /** The current event's text buffer while text is kept, else null: parsers fill it only when non-null. */
    final StringBuilder eventText() {
        return text == null ? null : text.event();
    }

    /** Whether each event re-sends the whole text so far (SGLang's /generate) instead of a delta. */
    boolean cumulativeText() {
        return false;
    }

    private void clearEventText() {
        if (text != null) {
            text.clearEvent();
        }
    }

    private void keepEventText() {
        if (text != null) {
            text.keepEvent();
        }
    }

    /**
     * Parses {@code length} bytes of {@code data} from {@code offset} into {@code out}. The allocation-free
     * {@link JsonScanner} handles what it fully understands; anything else (including every invalid
     * event) is re-parsed by Jackson, which therefore defines both results and error messages.
     */
    public final void parse(byte[] data, int offset, int length, ParsedChunk out) throws ChunkFormatException {
        if (isDoneAfterReset(data, offset, length, out)
                || (length <= MAX_SCANNED_LENGTH && scan(data, offset, length, out))) {
            return;
        }
        jacksonFallbacks++;
        out.reset();
        parseJson(data, offset, length, out);
    }

    /** The reference implementation: {@link #parse} with Jackson only. */
    final void parseWithJackson(byte[] data, int offset, int length, ParsedChunk out) throws ChunkFormatException {
        if (!isDoneAfterReset(data, offset, length, out)) {
            parseJson(data, offset, length, out);
        }
    }

    private static boolean isDoneAfterReset(byte[] data, int offset, int length, ParsedChunk out) {
        out.reset();
        if (isDone(data, offset, length)) {
            out.kind = ParsedChunk.Kind.DONE;
            return true;
        }
        return false;
    }

    private void parseJson(byte[] data, int offset, int length, ParsedChunk out) throws ChunkFormatException {
        clearEventText();
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
            keepEventText();
        }
    }

    /**
     * The scanner's mirror of {@link #parseJson}, applying the same rules in the same document order.
     * False when the scanner declined; {@code out} may then be half-filled, but stream state is untouched.
     */
    private boolean scan(byte[] data, int offset, int length, ParsedChunk out) {
        JsonScanner s = scanner;
        beginScan();
        clearEventText();
        try {
            if (s.begin(data, offset, length) != '{') {
                return false;
            }
            for (boolean more = s.openObject(); more; more = s.nextKey()) {
                int value = s.peek();
                if (s.keyIs(ERROR) && value != 'n') {
                    out.kind = ParsedChunk.Kind.ERROR;
                    out.errorMessage = scanErrorText(s, value);
                } else if (s.keyIs(USAGE) && value == '{') {
                    scanUsage(s, out);
                } else if (!scanField(s, value, out)) {
                    s.skipValue();
                }
            }
            s.finish();
        } catch (JsonScanner.Unsupported e) {
            return false;
        }
        commitScan();
        if (out.kind != ParsedChunk.Kind.ERROR) {
            afterEvent(out);
            keepEventText();
        }
        return true;
    }

    /**
     * Handles a top-level field; returns false to have it skipped. The parser is positioned on
     * {@code value}; an implementation that consumes a container must consume it fully.
     */
    abstract boolean onField(String field, JsonToken value, JsonParser parser, ParsedChunk out) throws IOException;

    /**
     * Scanner counterpart of {@link #onField}: the scanner sits on the value, whose first byte is
     * {@code value}; returns false to have it skipped. Must record cross-event state only in pending
     * fields that {@link #commitScan} applies, since a scan may still be abandoned to Jackson.
     */
    abstract boolean scanField(JsonScanner s, int value, ParsedChunk out);

    /** Clears the pending state of a scan about to start; default does nothing. */
    void beginScan() {}

    /** Applies the pending state of a scan that succeeded; default does nothing. */
    void commitScan() {}

    /** Called after a well-formed non-error event; default does nothing. */
    void afterEvent(ParsedChunk out) {}

    /**
     * Reads one field of a {@code choices[i]} object; returns whether it carried non-empty text. {@code first}:
     * the field belongs to the first choice, the one whose text SGLang keeps ({@code choices[0]}).
     */
    @FunctionalInterface
    interface ChoiceFieldReader {
        boolean read(String name, JsonToken value, JsonParser parser, boolean first) throws IOException;
    }

    /** The scanner-side twin of {@link ChoiceFieldReader}, positioned on the field's value. */
    @FunctionalInterface
    interface ChoiceFieldScanner {
        boolean scan(JsonScanner scanner, boolean first);
    }

    /**
     * Walks a {@code choices} array with Jackson: a non-empty array makes the event choice-bearing, and
     * it carries one token when any choice has non-empty text (as {@code field} judges).
     */
    static void readChoices(JsonParser parser, ParsedChunk out, ChoiceFieldReader field) throws IOException {
        boolean anyChoice = false;
        boolean anyText = false;
        while (parser.nextToken() == JsonToken.START_OBJECT) {
            boolean first = !anyChoice;
            anyChoice = true;
            String name;
            while ((name = parser.nextFieldName()) != null) {
                anyText |= field.read(name, parser.nextToken(), parser, first);
            }
        }
        markChoices(out, anyChoice, anyText);
    }

    /** {@link #readChoices} on the scanner path; declines the same shapes Jackson would treat oddly. */
    static void scanChoices(JsonScanner s, ParsedChunk out, ChoiceFieldScanner field) {
        boolean anyChoice = false;
        boolean anyText = false;
        for (boolean more = s.openArray(); more; more = s.nextElement()) {
            if (s.peek() != '{') {
                throw JsonScanner.UNSUPPORTED; // Jackson stops there without skipping the rest; let it decide
            }
            boolean first = !anyChoice;
            anyChoice = true;
            for (boolean key = s.openObject(); key; key = s.nextKey()) {
                anyText |= field.scan(s, first);
            }
        }
        markChoices(out, anyChoice, anyText);
    }

    private static void markChoices(ParsedChunk out, boolean anyChoice, boolean anyText) {
        if (anyChoice) {
            out.kind = ParsedChunk.Kind.CHOICES;
            out.tokens = anyText ? 1 : 0;
        }
    }

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

    private static void scanUsage(JsonScanner s, ParsedChunk out) {
        for (boolean more = s.openObject(); more; more = s.nextKey()) {
            if (s.keyIs(PROMPT_TOKENS)) {
                long v = s.intOrAbsent();
                out.usagePromptTokens = v == JsonScanner.ABSENT ? out.usagePromptTokens : (int) v;
            } else if (s.keyIs(COMPLETION_TOKENS)) {
                long v = s.intOrAbsent();
                out.usageCompletionTokens = v == JsonScanner.ABSENT ? out.usageCompletionTokens : (int) v;
            } else {
                s.skipValue();
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
        return errorText(type, message);
    }

    /** {@link #errorText(JsonParser, JsonToken)} on the scanner; errors are rare, so allocating is fine. */
    private static String scanErrorText(JsonScanner s, int value) {
        switch (value) {
            case '"' -> {
                return s.stringText();
            }
            case '{' -> {
                String message = null;
                String type = null;
                for (boolean more = s.openObject(); more; more = s.nextKey()) {
                    if (s.keyIs(MESSAGE) && s.peek() == '"') {
                        message = s.stringText();
                    } else if (s.keyIs(TYPE) && s.peek() == '"') {
                        type = s.stringText();
                    } else {
                        s.skipValue();
                    }
                }
                return errorText(type, message);
            }
            case '[', 't', 'f' -> {
                s.skipValue();
                return "error: " + (value == '[' ? JsonToken.START_ARRAY
                        : value == 't' ? JsonToken.VALUE_TRUE : JsonToken.VALUE_FALSE);
            }
            default -> {
                return "error: " + (s.numberIsIntegral() ? JsonToken.VALUE_NUMBER_INT : JsonToken.VALUE_NUMBER_FLOAT);
            }
        }
    }

    private static String errorText(String type, String message) {
        return (type == null ? "" : type + ": ") + (message == null ? "(no message)" : message);
    }

    static String preview(byte[] data, int offset, int length) {
        int shown = Math.min(length, 200);
        String text = new String(data, offset, shown, StandardCharsets.UTF_8);
        return length > shown ? text + "…(" + length + " bytes)" : text;
    }

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
