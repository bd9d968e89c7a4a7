package dev.servebench.testserver;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Splits an SSE body into events for assertions; accepts LF or CRLF line ends. */
final class Sse {

    private Sse() {
    }

    /** Raw event blocks (lines joined by \n), blank-line separated, comments included. */
    static List<String> blocks(String body) {
        String normalized = body.replace("\r\n", "\n");
        List<String> blocks = new ArrayList<>();
        for (String block : normalized.split("\n\n")) {
            if (!block.isEmpty()) {
                blocks.add(block);
            }
        }
        return blocks;
    }

    /** The payload of every {@code data:} event, in order (comments skipped). */
    static List<String> data(String body) {
        List<String> data = new ArrayList<>();
        for (String block : blocks(body)) {
            if (block.startsWith("data: ")) {
                data.add(block.substring("data: ".length()));
            }
        }
        return data;
    }

    /** Every data payload except [DONE], parsed (fails on invalid JSON). */
    static List<JsonNode> json(String body) {
        List<JsonNode> nodes = new ArrayList<>();
        for (String d : data(body)) {
            if (!d.equals("[DONE]")) {
                nodes.add(parse(d));
            }
        }
        return nodes;
    }

    static JsonNode parse(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
