package dev.servebench.client;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;

/**
 * The generated text of one exchange as SGLang keeps it ({@code generated_text}), for a run that re-counts it
 * with a client tokenizer. Each event's text is collected in a scratch buffer by whichever path parses it, and
 * applied only once the event parsed cleanly: an event the scanner abandons to Jackson counts once.
 */
final class OutputText {

    private final boolean cumulative;
    private StringBuilder kept = new StringBuilder();
    private StringBuilder event = new StringBuilder();

    /** @param cumulative every event re-sends the whole text so far (/generate) instead of a delta */
    OutputText(boolean cumulative) {
        this.cumulative = cumulative;
    }

    /** The current event's buffer. */
    StringBuilder event() {
        return event;
    }

    void clearEvent() {
        event.setLength(0);
    }

    /** Appends the event's text, or, for cumulative text, lets a non-empty one replace what was kept. */
    void keepEvent() {
        if (!cumulative) {
            kept.append(event);
        } else if (!event.isEmpty()) {
            StringBuilder previous = kept; // swap, no copy: the event's buffer becomes the text
            kept = event;
            event = previous;
        }
    }

    String soFar() {
        return kept.toString();
    }

    /**
     * Replaces {@code into}'s content with the current value when it is a string (a later duplicate key wins,
     * as in Python's json); returns whether it is a non-empty string, like {@link ChunkParser#nonEmptyString}.
     */
    static boolean capture(JsonParser parser, JsonToken value, StringBuilder into) throws IOException {
        into.setLength(0);
        if (value != JsonToken.VALUE_STRING) {
            return false;
        }
        into.append(parser.getTextCharacters(), parser.getTextOffset(), parser.getTextLength());
        return parser.getTextLength() > 0;
    }

    /** {@link #capture} on the scanner path, which sits on the value. */
    static boolean scan(JsonScanner s, StringBuilder into) {
        into.setLength(0);
        return s.scalarStringInto(into);
    }
}
