package dev.servebench.client;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.workload.PromptInput;
import dev.servebench.workload.PromptRequest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Serialises dataset rows into each endpoint's request body, before the run starts.
 *
 * <p>Every OpenAI-style body asks for {@code stream_options.include_usage} so the server's own token
 * count arrives with the stream; {@code ignore_eos} and {@code temperature 0} follow bench_serving's
 * defaults. {@code extraBody} is merged last and may override any field (bench_serving's
 * {@code --extra-request-body}).
 */
public final class RequestBodies {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonFactory JSON = MAPPER.getFactory();

    private final Endpoint endpoint;
    private final Optional<String> model;
    private final boolean ignoreEos;
    private final ObjectNode extraBody;

    public RequestBodies(Endpoint endpoint, Optional<String> model, boolean ignoreEos, ObjectNode extraBody) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.model = Objects.requireNonNull(model, "model");
        this.ignoreEos = ignoreEos;
        this.extraBody = extraBody == null ? MAPPER.createObjectNode() : extraBody.deepCopy();
    }

    /** Parses bench_serving's {@code --extra-request-body} JSON object; a clear error when it is not one. */
    public static ObjectNode parseExtraBody(String json) {
        try {
            JsonNode node = MAPPER.readTree(json);
            if (!(node instanceof ObjectNode object)) {
                throw new IllegalArgumentException("--extra-request-body must be a JSON object, got: " + json);
            }
            return object;
        } catch (IOException e) {
            throw new IllegalArgumentException("--extra-request-body is not valid JSON (" + e.getMessage() + ")", e);
        }
    }

    public PreparedRequest prepare(int index, PromptRequest row) {
        if (row.prompt() instanceof PromptInput.TokenIds && !endpoint.acceptsTokenIds()) {
            throw new IllegalArgumentException(endpoint.path() + " does not accept token-id prompts; use text prompts");
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + row.promptLen() * 6);
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.writeStartObject();
            switch (endpoint) {
                case COMPLETIONS -> writeCompletions(g, row);
                case CHAT_COMPLETIONS -> writeChat(g, row);
                case SGLANG_GENERATE -> writeGenerate(g, row);
            }
            writeExtra(g);
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new PreparedRequest(index, out.toByteArray(), row.promptLen(), row.outputLen());
    }

    private void writeCompletions(JsonGenerator g, PromptRequest row) throws IOException {
        writeModel(g);
        g.writeFieldName("prompt");
        writePrompt(g, row.prompt());
        writeOpenAiSampling(g, row);
    }

    private void writeChat(JsonGenerator g, PromptRequest row) throws IOException {
        writeModel(g);
        g.writeArrayFieldStart("messages");
        g.writeStartObject();
        g.writeStringField("role", "user");
        g.writeStringField("content", ((PromptInput.Text) row.prompt()).text());
        g.writeEndObject();
        g.writeEndArray();
        writeOpenAiSampling(g, row);
    }

    private void writeOpenAiSampling(JsonGenerator g, PromptRequest row) throws IOException {
        if (!extraBody.has("max_tokens")) {
            g.writeNumberField("max_tokens", row.outputLen());
        }
        if (!extraBody.has("temperature")) {
            g.writeNumberField("temperature", 0.0);
        }
        if (ignoreEos && !extraBody.has("ignore_eos")) {
            g.writeBooleanField("ignore_eos", true);
        }
        if (!extraBody.has("stream")) {
            g.writeBooleanField("stream", true);
        }
        if (!extraBody.has("stream_options")) {
            g.writeObjectFieldStart("stream_options");
            g.writeBooleanField("include_usage", true);
            g.writeEndObject();
        }
    }

    private void writeGenerate(JsonGenerator g, PromptRequest row) throws IOException {
        switch (row.prompt()) {
            case PromptInput.TokenIds ids -> {
                g.writeFieldName("input_ids");
                writePrompt(g, ids);
            }
            case PromptInput.Text text -> g.writeStringField("text", text.text());
        }
        g.writeObjectFieldStart("sampling_params");
        g.writeNumberField("temperature", 0.0);
        g.writeNumberField("max_new_tokens", row.outputLen());
        if (ignoreEos) {
            g.writeBooleanField("ignore_eos", true);
        }
        g.writeEndObject();
        if (!extraBody.has("stream")) {
            g.writeBooleanField("stream", true);
        }
    }

    private void writeModel(JsonGenerator g) throws IOException {
        if (model.isPresent() && !extraBody.has("model")) {
            g.writeStringField("model", model.get());
        }
    }

    private static void writePrompt(JsonGenerator g, PromptInput prompt) throws IOException {
        switch (prompt) {
            case PromptInput.TokenIds ids -> {
                g.writeStartArray();
                for (int i = 0; i < ids.length(); i++) {
                    g.writeNumber(ids.idAt(i));
                }
                g.writeEndArray();
            }
            case PromptInput.Text text -> g.writeString(text.text());
        }
    }

    private void writeExtra(JsonGenerator g) throws IOException {
        for (Map.Entry<String, JsonNode> field : extraBody.properties()) {
            g.writeFieldName(field.getKey());
            MAPPER.writeTree(g, field.getValue());
        }
    }
}
