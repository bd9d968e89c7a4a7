package dev.servebench.workload;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Streams a ShareGPT JSON file ({@code [{"id": ..., "conversations": [{"from": ..., "value": ...}, ...]},
 * ...]}) and keeps, for each conversation with at least two turns, the first turn's text and the second
 * turn's estimated token count (and its text, when a tokenizer will count it). Streaming rather than a tree,
 * because the usual file is ~650 MB and only the first two turns are needed. The structure is checked strictly (a wrong file should fail loudly, with
 * the line, column and JSON path); the content is not (roles are ignored, as SGLang ignores them).
 */
final class ShareGptReader {

    /**
     * The part of a conversation the benchmark uses.
     *
     * @param completionTokens the completion's estimated token count
     * @param completion       the completion's text, when the reader was asked to keep it
     */
    record Exchange(String prompt, int completionTokens, java.util.Optional<String> completion) {
    }

    private static final JsonFactory JSON = JsonFactory.builder().build();
    private static final Pattern NESTED_LOCATION = Pattern.compile("\\[Source: [^;\\]]*; line: (\\d+), column: (\\d+)]");

    private final Path file;
    private final JsonParser parser;
    private final boolean keepCompletions;
    /** JSON path of the value being read, for error messages. */
    private String path = "$";

    private ShareGptReader(Path file, JsonParser parser, boolean keepCompletions) {
        this.file = file;
        this.parser = parser;
        this.keepCompletions = keepCompletions;
    }

    /** The exchanges of all conversations with >= 2 turns, in file order, completions as estimates only. */
    static List<Exchange> read(Path file) {
        return read(file, false);
    }

    /** The exchanges of all conversations with >= 2 turns, in file order; with their completions' text if asked. */
    static List<Exchange> read(Path file, boolean keepCompletions) {
        try (InputStream in = Files.newInputStream(file); JsonParser parser = JSON.createParser(in)) {
            ShareGptReader reader = new ShareGptReader(file, parser, keepCompletions);
            try {
                return reader.readFile();
            } catch (StreamReadException e) {
                throw new DatasetException(file, "malformed JSON at " + where(e.getLocation()) + " (in " + reader.path
                        + "): " + withoutSource(e.getOriginalMessage()), e);
            }
        } catch (NoSuchFileException e) {
            throw new DatasetException(file, "no such file", e);
        } catch (IOException e) {
            throw new DatasetException(file, "cannot read: " + e, e);
        }
    }

    private List<Exchange> readFile() throws IOException {
        List<Exchange> exchanges = new ArrayList<>();
        expect(parser.nextToken(), JsonToken.START_ARRAY, "a JSON array of conversations");
        for (int i = 0; ; i++) {
            path = "$[" + i + "]";
            JsonToken token = parser.nextToken();
            if (token == JsonToken.END_ARRAY) {
                break;
            }
            Exchange exchange = readConversation(token);
            if (exchange != null) {
                exchanges.add(exchange);
            }
        }
        path = "$";
        JsonToken trailing = parser.nextToken();
        if (trailing != null) {
            throw fail("expected the end of the file after the top-level array, found " + describe(trailing));
        }
        return exchanges;
    }

    /** One {@code {"id": ..., "conversations": [...]}} object; null when it has fewer than two turns. */
    private Exchange readConversation(JsonToken token) throws IOException {
        expect(token, JsonToken.START_OBJECT, "a conversation object");
        JsonLocation start = parser.currentTokenLocation();
        String rowPath = path;
        Exchange exchange = null;
        boolean hasTurns = false;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken value = parser.nextToken();
            if (name.equals("conversations")) {
                path = rowPath + ".conversations";
                exchange = readTurns(value);
                hasTurns = true;
                path = rowPath;
            } else {
                parser.skipChildren();
            }
        }
        if (!hasTurns) {
            throw new DatasetException(file, where(start) + " (" + rowPath
                    + "): expected a field \"conversations\" (an array of turns)", null);
        }
        return exchange;
    }

    private Exchange readTurns(JsonToken token) throws IOException {
        expect(token, JsonToken.START_ARRAY, "an array of turns");
        String turnsPath = path;
        String first = null;
        String second = null;
        int count = 0;
        while ((token = parser.nextToken()) != JsonToken.END_ARRAY) {
            path = turnsPath + "[" + count + "]";
            String value = readTurn(token);
            if (count == 0) {
                first = value;
            } else if (count == 1) {
                second = value;
            }
            count++;
        }
        path = turnsPath;
        return count < 2 ? null : new Exchange(first, ShareGptDataset.estimateTokens(second),
                keepCompletions ? java.util.Optional.of(second) : java.util.Optional.empty());
    }

    /** One {@code {"from": ..., "value": "..."}} turn; returns the value. */
    private String readTurn(JsonToken token) throws IOException {
        expect(token, JsonToken.START_OBJECT, "a turn object");
        JsonLocation start = parser.currentTokenLocation();
        String turnPath = path;
        String value = null;
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String name = parser.currentName();
            JsonToken next = parser.nextToken();
            if (name.equals("value")) {
                path = turnPath + ".value";
                expect(next, JsonToken.VALUE_STRING, "a string");
                value = parser.getText();
                path = turnPath;
            } else {
                parser.skipChildren();
            }
        }
        if (value == null) {
            throw new DatasetException(file, where(start) + " (" + turnPath + "): expected a field \"value\" (a string)",
                    null);
        }
        return value;
    }

    private void expect(JsonToken actual, JsonToken expected, String what) {
        if (actual != expected) {
            throw fail("expected " + what + ", found " + describe(actual));
        }
    }

    private DatasetException fail(String message) {
        // At the end of input there is no current token; its "location" would be column 0.
        JsonLocation at = parser.currentToken() == null ? parser.currentLocation() : parser.currentTokenLocation();
        return new DatasetException(file, where(at) + " (" + path + "): " + message, null);
    }

    /** Jackson's nested locations read "[Source: REDACTED (...); line: 2, column: 21]"; keep line and column. */
    private static String withoutSource(String message) {
        return message == null ? "" : NESTED_LOCATION.matcher(message).replaceAll("line $1, column $2");
    }

    private static String where(JsonLocation at) {
        if (at == null) {
            return "an unknown position";
        }
        return "line " + at.getLineNr() + ", column " + at.getColumnNr();
    }

    private static String describe(JsonToken token) {
        if (token == null) {
            return "the end of the file";
        }
        return switch (token) {
            case START_OBJECT -> "an object";
            case START_ARRAY -> "an array";
            case END_OBJECT, END_ARRAY -> "the end of the enclosing value";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            case FIELD_NAME, VALUE_EMBEDDED_OBJECT, NOT_AVAILABLE -> token.toString();
        };
    }
}
