package dev.servebench.record;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
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
 */
public final class RecordJsonl {

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
        g.writeBooleanField("success", r.succeeded());
        g.writeNumberField("prompt_len", r.promptLen());
        g.writeNumberField("output_len", r.usage().map(Usage::completionTokens).orElse((int) r.chunkOutputTokens()));
        g.writeNumberField("ttft", r.sglangTtftSeconds());
        g.writeArrayFieldStart("itl");
        for (double x : r.sglangItlSeconds()) {
            g.writeNumber(x);
        }
        g.writeEndArray();
        g.writeNumberField("latency", r.sglangLatencySeconds());
        g.writeNumberField("start_time", r.startSeconds());
        g.writeStringField("error", switch (r.outcome()) {
            case Outcome.Success s -> "";
            case Outcome.Failure f -> f.kind() + ": " + f.reason();
        });
        g.writeNumberField("index", r.index());
        g.writeNumberField("requested_output_len", r.requestedOutputLen());
        g.writeNumberField("intended_ns", r.intendedNanos());
        g.writeNumberField("ready_ns", r.readyNanos());
        g.writeNumberField("sent_ns", r.sentNanos());
        g.writeNumberField("end_ns", r.endNanos());
        g.writeNumberField("queue_time", RequestRecord.seconds(r.queueNanos()));
        g.writeNumberField("chunk_output_tokens", r.chunkOutputTokens());
        // Only with a client tokenizer: a run without one writes the lines it always wrote.
        if (r.retokenizedOutputLen().isPresent()) {
            g.writeNumberField("retokenized_output_len", r.retokenizedOutputLen().getAsInt());
        }
        if (r.usage().isPresent()) {
            g.writeObjectFieldStart("usage");
            g.writeNumberField("prompt_tokens", r.usage().get().promptTokens());
            g.writeNumberField("completion_tokens", r.usage().get().completionTokens());
            g.writeEndObject();
        } else {
            g.writeNullField("usage");
        }
        switch (r.outcome()) {
            case Outcome.Success s -> g.writeNullField("failure");
            case Outcome.Failure f -> {
                g.writeObjectFieldStart("failure");
                g.writeStringField("kind", f.kind().name());
                g.writeStringField("reason", f.reason());
                g.writeNumberField("http_status", f.httpStatus());
                g.writeEndObject();
            }
        }
        ChunkTimeline chunks = r.chunks();
        g.writeArrayFieldStart("chunk_ns");
        for (int i = 0; i < chunks.size(); i++) {
            g.writeNumber(chunks.nanosAt(i));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("chunk_tokens");
        for (int i = 0; i < chunks.size(); i++) {
            g.writeNumber(chunks.tokensAt(i));
        }
        g.writeEndArray();
        g.writeEndObject();
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
        JsonNode ns = required(n, "chunk_ns");
        JsonNode tokens = required(n, "chunk_tokens");
        if (!ns.isArray() || !tokens.isArray() || ns.size() != tokens.size()) {
            throw new IllegalArgumentException("chunk_ns and chunk_tokens must be arrays of equal length");
        }
        ChunkTimeline.Builder timeline = new ChunkTimeline.Builder(ns.size());
        for (int i = 0; i < ns.size(); i++) {
            timeline.add(ns.get(i).longValue(), tokens.get(i).intValue());
        }
        JsonNode usageNode = n.get("usage");
        Optional<Usage> usage = usageNode == null || usageNode.isNull()
                ? Optional.empty()
                : Optional.of(new Usage(required(usageNode, "prompt_tokens").intValue(),
                        required(usageNode, "completion_tokens").intValue()));
        JsonNode failure = n.get("failure");
        Outcome outcome = failure == null || failure.isNull()
                ? Outcome.SUCCESS
                : new Outcome.Failure(FailureKind.valueOf(required(failure, "kind").asText()),
                        required(failure, "reason").asText(), failure.path("http_status").asInt(0));
        if (outcome.succeeded() != required(n, "success").asBoolean()) {
            throw new IllegalArgumentException("success contradicts failure");
        }
        JsonNode retokenized = n.get("retokenized_output_len");
        if (retokenized != null && !retokenized.isNull() && !(retokenized.isIntegralNumber() && retokenized.canConvertToInt())) {
            throw new IllegalArgumentException("retokenized_output_len must be an integer, got " + retokenized);
        }
        return new RequestRecord(required(n, "index").intValue(), required(n, "prompt_len").intValue(),
                required(n, "requested_output_len").intValue(), required(n, "intended_ns").longValue(),
                required(n, "ready_ns").longValue(), required(n, "sent_ns").longValue(),
                required(n, "end_ns").longValue(), timeline.build(), usage, outcome,
                retokenized == null || retokenized.isNull() ? OptionalInt.empty() : OptionalInt.of(retokenized.intValue()));
    }

    private static JsonNode required(JsonNode n, String field) {
        JsonNode value = n.get(field);
        if (value == null || value.isNull()) {
            throw new IllegalArgumentException("missing field '" + field + "'");
        }
        return value;
    }
}
