package dev.servebench.testserver;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The stdin protocol of {@code ScriptedServerMain --emissions}: a benchmark in another process asks for the
 * server's emission logs between measurements. Unknown commands are answered with an {@code ERROR} line,
 * never a crash: the server keeps serving until stdin ends.
 */
final class EmissionCommands {

    private static final ObjectMapper JSON = new ObjectMapper();

    private EmissionCommands() {
    }

    static void serve(ScriptedServer server, InputStream in, PrintStream out) throws IOException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        for (String line; (line = lines.readLine()) != null; ) {
            String command = line.strip();
            if (command.equals("CLEAR")) {
                server.clearEmissions();
                out.println("CLEARED");
            } else if (command.startsWith("DUMP ")) {
                List<EmissionLog> logs = server.emissions();
                try {
                    write(logs, Path.of(command.substring(5).strip()));
                    out.println("DUMPED " + logs.size());
                } catch (IOException e) {
                    out.println("ERROR cannot write " + command.substring(5).strip() + ": " + e.getMessage());
                }
            } else {
                out.println("ERROR unknown command '" + command + "'; expected CLEAR or DUMP <file>");
            }
            out.flush();
        }
    }

    static void write(List<EmissionLog> logs, Path file) throws IOException {
        try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (EmissionLog log : logs) {
                writer.write(JSON.writeValueAsString(toJson(log)));
                writer.write('\n');
            }
        }
    }

    static ObjectNode toJson(EmissionLog log) {
        ObjectNode node = JSON.createObjectNode();
        node.put("request_index", log.requestIndex());
        node.put("prompt_tokens", log.promptTokens());
        node.put("outcome", log.outcome().name());
        node.put("arrival_nanos", log.arrivalNanos());
        node.put("start_nanos", log.startNanos());
        node.put("ttft_nanos", log.ttftNanos());
        node.put("gap_nanos", log.gapNanos());
        var chunks = node.putArray("chunk_nanos");
        for (long nanos : log.chunkNanos()) {
            chunks.add(nanos);
        }
        return node;
    }
}
