package dev.servebench.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.servebench.testserver.Plan;
import dev.servebench.testserver.Script;
import dev.servebench.testserver.ScriptedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The plain reference reader parses chunked SSE wherever the reads split it, and stamps each event by its read. */
class PlainSocketReaderTest {

    private static final String BODY = "{\"model\":\"m\",\"prompt\":[7,7,7],\"max_tokens\":5,\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true}}";

    /**
     * Chunk boundaries inside a JSON value, between the CR and LF of a line end, inside a field name; LF and
     * CRLF lines, a comment, an event of two data lines, a chunk extension and a trailer.
     */
    private static final String WIRE = chunked(": ping\n", "data: {\"a\"", ":", "1}\r",
            "\n\r\ndata: line one\ndat", "a: line two\n\n", "data: [DONE]\n\n") + "0\r\nx-trailer: 1\r\n\r\n";

    private static String chunked(String... pieces) {
        StringBuilder wire = new StringBuilder();
        for (String piece : pieces) {
            wire.append(Integer.toHexString(piece.length())).append(wire.isEmpty() ? ";ext=1" : "")
                    .append("\r\n").append(piece).append("\r\n");
        }
        return wire.toString();
    }

    @Test
    void parsesChunkedSseSplitAtEveryByte() throws IOException {
        byte[] wire = WIRE.getBytes(StandardCharsets.US_ASCII);
        List<String> expected = List.of("{\"a\":1}", "line one\nline two", "[DONE]");
        int[] eventEnds = {WIRE.indexOf("\n\r\ndata: line one") + 2, WIRE.indexOf("two\n\n") + 4,
                WIRE.indexOf("[DONE]\n\n") + 7};
        for (int split = 0; split <= wire.length; split++) {
            int firstPart = split;
            ChunkedSseParser parser = new ChunkedSseParser();
            parser.feed(wire, 0, split, 1);
            parser.feed(wire, split, wire.length - split, 2);
            assertThat(parser.done()).as("split at %d", split).isTrue();
            assertThat(parser.events()).as("split at %d", split)
                    .extracting(ChunkedSseParser.Event::data).isEqualTo(expected);
            // An event is stamped by the read that delivered its closing blank line.
            List<Long> stamps = parser.events().stream().map(ChunkedSseParser.Event::receivedNanos).toList();
            List<Long> expectedStamps = IntStream.of(eventEnds).mapToObj(end -> end < firstPart ? 1L : 2L).toList();
            assertThat(stamps).as("split at %d", split).isEqualTo(expectedStamps);
        }
        ChunkedSseParser byteByByte = new ChunkedSseParser();
        for (int i = 0; i < wire.length; i++) {
            byteByByte.feed(wire, i, 1, i);
        }
        assertThat(byteByByte.events()).extracting(ChunkedSseParser.Event::data).isEqualTo(expected);
        assertThat(byteByByte.events()).extracting(ChunkedSseParser.Event::receivedNanos)
                .containsExactly((long) eventEnds[0], (long) eventEnds[1], (long) eventEnds[2]);
    }

    @Test
    void badFramingIsAClearError() {
        assertThatThrownBy(() -> feed("zz\r\n")).hasMessageContaining("chunk size 'zz' is not hexadecimal");
        assertThatThrownBy(() -> feed("2\r\nabXY")).hasMessageContaining("not followed by CRLF (byte 0x58)");
        assertThatThrownBy(() -> feed("6\r\ndata: \r\n0\r\n\r\n")).hasMessageContaining("ended inside an SSE event");
        assertThatThrownBy(() -> feed("0\r\n\r\nHTTP")).hasMessageContaining("4 bytes after the end of the response");
    }

    private static void feed(String wire) throws IOException {
        byte[] bytes = wire.getBytes(StandardCharsets.US_ASCII);
        new ChunkedSseParser().feed(bytes, 0, bytes.length, 0);
    }

    /** The scripted server's stream with CRLF lines, pings and empty events, read in pieces of every small size. */
    @Test
    void readsTheScriptedServersStreamWhateverTheReadSize() throws Exception {
        Plan decorated = Plan.builder().crlf(true).pingEvery(2).emptyEvery(3).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(decorated))) {
            List<List<String>> byReadSize = new ArrayList<>();
            for (int readSize : new int[] {1, 2, 3, 5, 7, 13, 64, Integer.MAX_VALUE}) {
                try (PlainSocketReader reader = new PlainSocketReader("127.0.0.1", server.port(), readSize)) {
                    byte[] request = PlainSocketReader.request("127.0.0.1", server.port(), "/v1/completions",
                            BODY.getBytes(StandardCharsets.UTF_8));
                    // Two answers on one keep-alive connection.
                    PlainSocketReader.Exchange first = reader.exchange(request);
                    PlainSocketReader.Exchange second = reader.exchange(request);
                    assertThat(data(second)).isEqualTo(data(first));
                    byReadSize.add(data(first));
                }
            }
            List<String> events = byReadSize.getFirst();
            assertThat(byReadSize).allSatisfy(e -> assertThat(e).isEqualTo(events));
            List<String> tokens = new ArrayList<>();
            for (String data : events) {
                if (PlainSocketRun.carriesToken(data)) {
                    tokens.add(data);
                }
            }
            assertThat(tokens).hasSize(5).allSatisfy(t -> assertThat(t).contains("\"text\":\" t"));
            assertThat(events.size()).as("empty events and usage are read but are not tokens")
                    .isGreaterThan(tokens.size() + 2);
            assertThat(events.getLast()).isEqualTo("[DONE]");
        }
    }

    /** Paced events, each written in two halves: real reads end mid-line. */
    @Test
    void readsSplitWritesWithNonDecreasingStamps() throws Exception {
        Plan split = Plan.builder().gap(Duration.ofMillis(1)).splitWrites(Duration.ofMillis(1)).build();
        try (ScriptedServer server = ScriptedServer.start(Script.of(split));
             PlainSocketReader reader = new PlainSocketReader("127.0.0.1", server.port())) {
            PlainSocketReader.Exchange answer = reader.exchange(PlainSocketReader.request("127.0.0.1",
                    server.port(), "/v1/completions", BODY.getBytes(StandardCharsets.UTF_8)));
            assertThat(answer.events()).hasSize(7);
            assertThat(answer.events().getFirst().receivedNanos()).isGreaterThanOrEqualTo(answer.sentNanos());
            assertThat(answer.events()).isSortedAccordingTo(
                    (a, b) -> Long.compare(a.receivedNanos(), b.receivedNanos()));
        }
    }

    private static List<String> data(PlainSocketReader.Exchange exchange) {
        return exchange.events().stream().map(ChunkedSseParser.Event::data).toList();
    }

    @Test
    void anAnswerOtherThanAStreamIsAClearError() throws Exception {
        try (ScriptedServer server = ScriptedServer.start(Script.fullSpeed());
             PlainSocketReader reader = new PlainSocketReader("127.0.0.1", server.port())) {
            assertThatThrownBy(() -> reader.exchange(PlainSocketReader.request("127.0.0.1", server.port(),
                    "/v1/nothing", BODY.getBytes(StandardCharsets.UTF_8))))
                    .hasMessageStartingWith("expected 'HTTP/1.1 200', the server answered 'HTTP/1.1 404");
        }
    }
}
