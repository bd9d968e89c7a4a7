package dev.servebench.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * One JSON object per request per line. The SGLang per-request fields come first, in SGLang's units
 * (seconds): {@code success, prompt_len, output_len, ttft, itl, latency, start_time, error}. Our raw facts
 * follow in integer nanoseconds; they alone define the record, and {@link #read(Path)} rebuilds it from
 * them (the SGLang fields are derived and ignored on reading). Schema: README, "Records JSONL".
 *
 * <p>The line is defined once, by the field names below, which the streaming writer and the reader both use.
 * Format {@value #FORMAT_ID}: its lines carry no {@code format} field, because a constant on each of a
 * million lines costs disk and the records thread's time and says nothing the file name does not. A later
 * version must add {@code "format"} to its lines; this reader refuses a line whose {@code format} is not
 * {@value #FORMAT_ID}, so a newer file is never read as this one.
 */
public final class RecordJsonl {

    /** The format's name and version as {@code results.FileFormat} lists them. */
    public static final String FORMAT_NAME = "records";
    public static final int FORMAT_VERSION = 1;
    public static final String FORMAT_ID = "servebench-" + FORMAT_NAME + "/" + FORMAT_VERSION;

    static final SerializableString FORMAT = new SerializedString("format");
    static final SerializableString SUCCESS = new SerializedString("success");
    static final SerializableString PROMPT_LEN = new SerializedString("prompt_len");
    static final SerializableString OUTPUT_LEN = new SerializedString("output_len");
    static final SerializableString TTFT = new SerializedString("ttft");
    static final SerializableString ITL = new SerializedString("itl");
    static final SerializableString LATENCY = new SerializedString("latency");
    static final SerializableString START_TIME = new SerializedString("start_time");
    static final SerializableString ERROR = new SerializedString("error");
    static final SerializableString INDEX = new SerializedString("index");
    static final SerializableString REQUESTED_OUTPUT_LEN = new SerializedString("requested_output_len");
    static final SerializableString INTENDED_NS = new SerializedString("intended_ns");
    static final SerializableString READY_NS = new SerializedString("ready_ns");
    static final SerializableString SENT_NS = new SerializedString("sent_ns");
    static final SerializableString END_NS = new SerializedString("end_ns");
    static final SerializableString QUEUE_TIME = new SerializedString("queue_time");
    static final SerializableString CHUNK_OUTPUT_TOKENS = new SerializedString("chunk_output_tokens");
    static final SerializableString RETOKENIZED_OUTPUT_LEN = new SerializedString("retokenized_output_len");
    static final SerializableString USAGE = new SerializedString("usage");
    static final SerializableString PROMPT_TOKENS = new SerializedString("prompt_tokens");
    static final SerializableString COMPLETION_TOKENS = new SerializedString("completion_tokens");
    static final SerializableString FAILURE = new SerializedString("failure");
    static final SerializableString KIND = new SerializedString("kind");
    static final SerializableString REASON = new SerializedString("reason");
    static final SerializableString HTTP_STATUS = new SerializedString("http_status");
    static final SerializableString CHUNK_NS = new SerializedString("chunk_ns");
    static final SerializableString CHUNK_TOKENS = new SerializedString("chunk_tokens");

    private static final JsonFactory JSON = new JsonFactory();
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RecordJsonl() {}

    /** The record as one JSON line (without the line break). */
    public static String toLine(RequestRecord r) {
        StringWriter out = new StringWriter(256 + r.chunks().size() * 24);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            write(g, r);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toString();
    }

    private static void write(JsonGenerator g, RequestRecord r) throws IOException {
        g.writeStartObject();
        g.writeFieldName(SUCCESS);
        g.writeBoolean(r.succeeded());
        number(g, PROMPT_LEN, r.promptLen());
        number(g, OUTPUT_LEN, r.usage().map(Usage::completionTokens).orElse((int) r.chunkOutputTokens()));
        number(g, TTFT, r.sglangTtftSeconds());
        g.writeFieldName(ITL);
        g.writeStartArray();
        for (double x : r.sglangItlSeconds()) {
            g.writeNumber(x);
        }
        g.writeEndArray();
        number(g, LATENCY, r.sglangLatencySeconds());
        number(g, START_TIME, r.startSeconds());
        g.writeFieldName(ERROR);
        g.writeString(switch (r.outcome()) {
            case Outcome.Success s -> "";
            case Outcome.Failure f -> f.kind() + ": " + f.reason();
        });
        number(g, INDEX, r.index());
        number(g, REQUESTED_OUTPUT_LEN, r.requestedOutputLen());
        number(g, INTENDED_NS, r.intendedNanos());
        number(g, READY_NS, r.readyNanos());
        number(g, SENT_NS, r.sentNanos());
        number(g, END_NS, r.endNanos());
        number(g, QUEUE_TIME, RequestRecord.seconds(r.queueNanos()));
        number(g, CHUNK_OUTPUT_TOKENS, r.chunkOutputTokens());
        // Only with a client tokenizer: a run without one writes the lines it always wrote.
        if (r.retokenizedOutputLen().isPresent()) {
            number(g, RETOKENIZED_OUTPUT_LEN, r.retokenizedOutputLen().getAsInt());
        }
        g.writeFieldName(USAGE);
        if (r.usage().isPresent()) {
            g.writeStartObject();
            number(g, PROMPT_TOKENS, r.usage().get().promptTokens());
            number(g, COMPLETION_TOKENS, r.usage().get().completionTokens());
            g.writeEndObject();
        } else {
            g.writeNull();
        }
        g.writeFieldName(FAILURE);
        switch (r.outcome()) {
            case Outcome.Success s -> g.writeNull();
            case Outcome.Failure f -> {
                g.writeStartObject();
                g.writeFieldName(KIND);
                g.writeString(f.kind().name());
                g.writeFieldName(REASON);
                g.writeString(f.reason());
                number(g, HTTP_STATUS, f.httpStatus());
                g.writeEndObject();
            }
        }
        ChunkTimeline chunks = r.chunks();
        g.writeFieldName(CHUNK_NS);
        g.writeStartArray();
        for (int i = 0; i < chunks.size(); i++) {
            g.writeNumber(chunks.nanosAt(i));
        }
        g.writeEndArray();
        g.writeFieldName(CHUNK_TOKENS);
        g.writeStartArray();
        for (int i = 0; i < chunks.size(); i++) {
            g.writeNumber(chunks.tokensAt(i));
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void number(JsonGenerator g, SerializableString field, long value) throws IOException {
        g.writeFieldName(field);
        g.writeNumber(value);
    }

    private static void number(JsonGenerator g, SerializableString field, double value) throws IOException {
        g.writeFieldName(field);
        g.writeNumber(value);
    }

    /**
     * Reads every record of a records file, in file order. A last line without its line break that does
     * not parse is the trace of a killed run and is skipped; any other bad line is an error naming the
     * file and line.
     */
    public static List<RequestRecord> read(Path file) throws IOException {
        List<RequestRecord> records = new ArrayList<>();
        String content = Files.readString(file, StandardCharsets.UTF_8);
        String[] lines = content.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.isBlank()) {
                continue;
            }
            boolean unterminatedLast = i == lines.length - 1;
            try {
                records.add(fromJson(MAPPER.readTree(line)));
            } catch (IOException | RuntimeException e) {
                if (unterminatedLast) {
                    break;
                }
                throw new IOException(file + ":" + (i + 1) + ": not a servebench request record ("
                        + firstLine(e.getMessage()) + ")", e);
            }
        }
        return records;
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "unreadable";
        }
        int newline = message.indexOf('\n');
        return newline < 0 ? message : message.substring(0, newline);
    }

    static RequestRecord fromJson(JsonNode n) {
        JsonNode format = n.get(FORMAT.getValue());
        if (format != null && !format.asText().equals(FORMAT_ID)) {
            throw new IllegalArgumentException("format " + format.asText() + " is not " + FORMAT_ID
                    + ", the records format this servebench reads");
        }
        JsonNode ns = required(n, CHUNK_NS);
        JsonNode tokens = required(n, CHUNK_TOKENS);
        if (!ns.isArray() || !tokens.isArray() || ns.size() != tokens.size()) {
            throw new IllegalArgumentException("chunk_ns and chunk_tokens must be arrays of equal length");
        }
        ChunkTimeline.Builder timeline = new ChunkTimeline.Builder(ns.size());
        for (int i = 0; i < ns.size(); i++) {
            timeline.add(ns.get(i).longValue(), tokens.get(i).intValue());
        }
        JsonNode usageNode = n.get(USAGE.getValue());
        Optional<Usage> usage = usageNode == null || usageNode.isNull()
                ? Optional.empty()
                : Optional.of(new Usage(required(usageNode, PROMPT_TOKENS).intValue(),
                        required(usageNode, COMPLETION_TOKENS).intValue()));
        JsonNode failure = n.get(FAILURE.getValue());
        Outcome outcome = failure == null || failure.isNull()
                ? Outcome.SUCCESS
                : new Outcome.Failure(FailureKind.valueOf(required(failure, KIND).asText()),
                        required(failure, REASON).asText(), failure.path(HTTP_STATUS.getValue()).asInt(0));
        if (outcome.succeeded() != required(n, SUCCESS).asBoolean()) {
            throw new IllegalArgumentException("success contradicts failure");
        }
        JsonNode retokenized = n.get(RETOKENIZED_OUTPUT_LEN.getValue());
        if (retokenized != null && !retokenized.isNull() && !(retokenized.isIntegralNumber() && retokenized.canConvertToInt())) {
            throw new IllegalArgumentException("retokenized_output_len must be an integer, got " + retokenized);
        }
        return new RequestRecord(required(n, INDEX).intValue(), required(n, PROMPT_LEN).intValue(),
                required(n, REQUESTED_OUTPUT_LEN).intValue(), required(n, INTENDED_NS).longValue(),
                required(n, READY_NS).longValue(), required(n, SENT_NS).longValue(),
                required(n, END_NS).longValue(), timeline.build(), usage, outcome,
                retokenized == null || retokenized.isNull() ? OptionalInt.empty() : OptionalInt.of(retokenized.intValue()));
    }

    private static JsonNode required(JsonNode n, SerializableString field) {
        JsonNode value = n.get(field.getValue());
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + field + "'");
        }
        return value;
    }
}
