package dev.servebench.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one HTTP/1.1 chunked response body carrying server-sent events, fed with whatever bytes each socket
 * read returned, and stamps every {@code data:} event with the time of the read that completed it. The plain
 * reference reader's whole parser: chunk framing (hex size line, data, CRLF; size 0 then trailers ends the body),
 * SSE lines ended by LF or CRLF, events ended by a blank line, {@code data} lines joined by LF, comments and
 * other fields ignored (a lone CR as line end is not supported: no OpenAI-compatible server sends it).
 */
final class ChunkedSseParser {

    /** One SSE event: its joined {@code data} lines, and when the read that completed it returned. */
    record Event(long receivedNanos, String data) {}

    private enum State { SIZE_LINE, DATA, DATA_CR, DATA_LF, TRAILER_LINE, DONE }

    /** A chunk size line longer than this is not HTTP chunked framing. */
    private static final int MAX_SIZE_LINE = 128;

    private State state = State.SIZE_LINE;
    private final StringBuilder controlLine = new StringBuilder();
    private long chunkLeft;
    private final ByteArrayOutputStream sseLine = new ByteArrayOutputStream(512);
    private final StringBuilder data = new StringBuilder();
    private boolean eventHasData;
    private final List<Event> events = new ArrayList<>();
    private long bodyBytes;

    /** Whether the terminating chunk and its trailers have been read. */
    boolean done() {
        return state == State.DONE;
    }

    /** The events completed so far, in order. */
    List<Event> events() {
        return events;
    }

    /**
     * Takes the next {@code length} bytes of the body, read at {@code readNanos}.
     *
     * @throws IOException when the bytes are not chunked framing, or arrive after the body ended
     */
    void feed(byte[] bytes, int offset, int length, long readNanos) throws IOException {
        int i = offset;
        int end = offset + length;
        while (i < end) {
            switch (state) {
                case SIZE_LINE, TRAILER_LINE -> {
                    byte b = bytes[i++];
                    bodyBytes++;
                    if (b == '\n') {
                        endControlLine();
                    } else if (controlLine.length() >= MAX_SIZE_LINE) {
                        throw malformed("a chunk size or trailer line longer than " + MAX_SIZE_LINE + " bytes");
                    } else {
                        controlLine.append((char) (b & 0xff));
                    }
                }
                case DATA -> {
                    int n = (int) Math.min(chunkLeft, end - i);
                    sse(bytes, i, n, readNanos);
                    i += n;
                    bodyBytes += n;
                    chunkLeft -= n;
                    if (chunkLeft == 0) {
                        state = State.DATA_CR;
                    }
                }
                case DATA_CR, DATA_LF -> {
                    byte expected = state == State.DATA_CR ? (byte) '\r' : (byte) '\n';
                    if (bytes[i] != expected) {
                        throw malformed("a chunk's data not followed by CRLF (byte 0x"
                                + Integer.toHexString(bytes[i] & 0xff) + ")");
                    }
                    i++;
                    bodyBytes++;
                    state = state == State.DATA_CR ? State.DATA_LF : State.SIZE_LINE;
                }
                case DONE -> throw malformed((end - i) + " bytes after the end of the response"
                        + " (one request at a time: the server sent more than one answer)");
            }
        }
    }

    private void endControlLine() throws IOException {
        String line = controlLine.toString().strip();
        controlLine.setLength(0);
        if (state == State.TRAILER_LINE) {
            if (line.isEmpty()) {
                state = State.DONE;
                if (eventHasData || sseLine.size() > 0) {
                    throw malformed("the body ended inside an SSE event");
                }
            }
            return;
        }
        int extension = line.indexOf(';');
        String hex = extension < 0 ? line : line.substring(0, extension).strip();
        try {
            chunkLeft = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw malformed("chunk size '" + line + "' is not hexadecimal");
        }
        if (chunkLeft < 0) {
            throw malformed("negative chunk size '" + line + "'");
        }
        state = chunkLeft == 0 ? State.TRAILER_LINE : State.DATA;
    }

    /** SSE over the de-chunked body bytes. */
    private void sse(byte[] bytes, int from, int length, long readNanos) {
        int lineStart = from;
        for (int i = from; i < from + length; i++) {
            if (bytes[i] == '\n') {
                sseLine.write(bytes, lineStart, i - lineStart);
                endSseLine(readNanos);
                lineStart = i + 1;
            }
        }
        sseLine.write(bytes, lineStart, from + length - lineStart);
    }

    private void endSseLine(long readNanos) {
        byte[] raw = sseLine.toByteArray();
        sseLine.reset();
        int length = raw.length > 0 && raw[raw.length - 1] == '\r' ? raw.length - 1 : raw.length;
        if (length == 0) {
            if (eventHasData) {
                events.add(new Event(readNanos, data.toString()));
            }
            data.setLength(0);
            eventHasData = false;
            return;
        }
        String line = new String(raw, 0, length, StandardCharsets.UTF_8);
        if (line.equals("data") || line.startsWith("data:")) {
            String value = line.length() <= 5 ? "" : line.substring(line.charAt(5) == ' ' ? 6 : 5);
            if (eventHasData) {
                data.append('\n');
            }
            data.append(value);
            eventHasData = true;
        }
        // Comments (": ping") and the other fields (event, id, retry) carry no token.
    }

    private IOException malformed(String what) {
        return new IOException("malformed chunked SSE body at byte " + bodyBytes + ": " + what);
    }
}
