package dev.servebench.results;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads and writes the records that define servebench's JSON files ({@link FileFormat}): one mapper for all of
 * them (pretty-printed as the files always were), the format checked before anything else is read, and every
 * error naming the file. Fields a reader does not know are skipped: a file may carry more than this version
 * reads (e.g. a derived {@code fingerprint}).
 */
public final class FormatJson {

    public static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private FormatJson() {
    }

    /** Pretty JSON of a format record, as written to its file. */
    public static String text(Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JacksonException e) {
            throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON", e);
        }
    }

    /** Writes atomically (a reader never sees half of it). */
    public static void write(Path file, Object value) throws IOException {
        AtomicFiles.write(file, text(value));
    }

    /**
     * Reads {@code file} as {@code type}, checking its format first.
     *
     * @throws NoSuchFileException      no such file (the message says what was expected)
     * @throws IllegalArgumentException not JSON, another format or a newer version, or a value the record
     *                                  refuses; the message starts with the file
     */
    public static <T> T read(Path file, FileFormat format, Class<T> type) throws IOException {
        return convert(readTree(file, format), format, type, file.toString());
    }

    /** The file parsed, not yet checked: for a reader that needs more than the record (an older layout). */
    public static JsonNode readTree(Path file, FileFormat format) throws IOException {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (NoSuchFileException | FileNotFoundException e) {
            throw new NoSuchFileException(file.toString(), null, "not found; expected a " + format.file());
        } catch (JacksonException e) {
            throw new IllegalArgumentException(file + ": not JSON (" + e.getOriginalMessage() + "); expected a "
                    + format.file());
        }
    }

    /** {@link #read} of a document already parsed (one line of a JSONL file, a part of a baseline). */
    public static <T> T convert(JsonNode tree, FileFormat format, Class<T> type, String where) {
        if (tree == null || !tree.isObject()) {
            throw new IllegalArgumentException(where + ": expected a JSON object (" + format.file() + "), found "
                    + (tree == null ? "nothing" : tree.getNodeType().toString().toLowerCase(java.util.Locale.ROOT)));
        }
        JsonNode stated = tree.get("format");
        try {
            format.accept(stated == null || stated.isNull() ? null : stated.asText());
            return MAPPER.treeToValue(tree, type);
        } catch (ValueInstantiationException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IllegalArgumentException(where + path(e) + ": " + cause.getMessage(), e);
        } catch (JsonMappingException e) {
            throw new IllegalArgumentException(where + path(e) + ": not as a " + format.file() + " has it ("
                    + e.getOriginalMessage() + ")", e);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(where + ": not a " + format.file() + " (" + e.getOriginalMessage()
                    + ")", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + ": " + e.getMessage(), e);
        }
    }

    /** Where in the document, as {@code : points[0].repeats}; empty at the top. */
    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference reference : e.getPath()) {
            if (reference.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(reference.getFieldName());
            } else if (reference.getIndex() >= 0) {
                path.append('[').append(reference.getIndex()).append(']');
            }
        }
        return path.isEmpty() ? "" : ": " + path;
    }

    /** The record as a tree, e.g. to embed it in another document. */
    public static ObjectNode tree(Object value) {
        return MAPPER.valueToTree(value);
    }
}
