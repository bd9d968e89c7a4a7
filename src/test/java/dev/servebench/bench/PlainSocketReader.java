package dev.servebench.bench;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * The simplest client that can time a streamed completion: one blocking {@link Socket} (TCP_NODELAY,
 * keep-alive), one request after the other, no framework. The send time is stamped just before the request's
 * single {@code write()}; each {@code data:} event is stamped with {@code System.nanoTime()} taken right after
 * the {@code read()} that returned the bytes completing it. It is the reference the cold-start timing benchmark
 * holds servebench's Netty client against: whatever timing error it shows belongs to the machine, not to a
 * framework. Not thread-safe: one thread per reader.
 */
final class PlainSocketReader implements AutoCloseable {

    /** One answered request: when it was written and the events of its body, in order. */
    record Exchange(long sentNanos, List<ChunkedSseParser.Event> events) {}

    private static final byte[] HEAD_END = {'\r', '\n', '\r', '\n'};
    private static final int MAX_HEAD_BYTES = 16 * 1024;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final byte[] buffer = new byte[8 * 1024];
    private final int maxReadBytes;

    /** Connects to {@code host:port}. */
    PlainSocketReader(String host, int port) throws IOException {
        this(host, port, Integer.MAX_VALUE);
    }

    /**
     * As above, asking each {@code read()} for at most {@code maxReadBytes} bytes: tests use it to split the
     * stream at every possible byte boundary.
     */
    PlainSocketReader(String host, int port, int maxReadBytes) throws IOException {
        if (maxReadBytes < 1) {
            throw new IllegalArgumentException("maxReadBytes (" + maxReadBytes + ") must be >= 1");
        }
        this.maxReadBytes = maxReadBytes;
        socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setKeepAlive(true);
            socket.setSoTimeout(30_000);
            socket.connect(new InetSocketAddress(host, port), 10_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        } catch (IOException e) {
            socket.close();
            throw new IOException("cannot connect to " + host + ":" + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * The HTTP/1.1 POST servebench's client writes for {@code body} (its headers, in its order), as one array
     * so that it goes out in one {@code write()}.
     */
    static byte[] request(String host, int port, String path, byte[] body) {
        byte[] head = ("POST " + path + " HTTP/1.1\r\n"
                + "host: " + host + ":" + port + "\r\n"
                + "content-type: application/json\r\n"
                + "content-length: " + body.length + "\r\n"
                + "accept: text/event-stream\r\n"
                + "user-agent: servebench\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[head.length + body.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        return request;
    }

    /**
     * Writes {@code request} (from {@link #request}) and reads its whole chunked SSE answer.
     *
     * @throws IOException when the connection fails or closes early, or the answer is not a 200 chunked stream
     */
    Exchange exchange(byte[] request) throws IOException {
        ChunkedSseParser body = new ChunkedSseParser();
        long sent = System.nanoTime();
        out.write(request);
        out.flush();
        ByteArrayOutputStream head = new ByteArrayOutputStream(256);
        boolean inBody = false;
        while (!body.done()) {
            int n = in.read(buffer, 0, Math.min(buffer.length, maxReadBytes));
            long readNanos = System.nanoTime();
            if (n < 0) {
                throw new IOException("the server closed the connection " + (inBody
                        ? "inside the response body (" + body.events().size() + " events read)"
                        : "before the end of the response head (" + head.size() + " bytes read)"));
            }
            if (inBody) {
                body.feed(buffer, 0, n, readNanos);
                continue;
            }
            int searchFrom = Math.max(0, head.size() - (HEAD_END.length - 1));
            head.write(buffer, 0, n);
            int headEnd = indexOf(head.toByteArray(), searchFrom);
            if (headEnd < 0) {
                if (head.size() > MAX_HEAD_BYTES) {
                    throw new IOException("no end of the response head in its first " + head.size() + " bytes");
                }
                continue;
            }
            checkHead(new String(head.toByteArray(), 0, headEnd, StandardCharsets.ISO_8859_1));
            inBody = true;
            int bodyStartInRead = headEnd + HEAD_END.length - (head.size() - n);
            body.feed(buffer, bodyStartInRead, n - bodyStartInRead, readNanos);
        }
        return new Exchange(sent, body.events());
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i + HEAD_END.length <= bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n' && bytes[i + 2] == '\r' && bytes[i + 3] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /** This reader handles exactly what a streaming server answers: 200 with a chunked body. */
    private static void checkHead(String head) throws IOException {
        String[] lines = head.split("\r\n");
        if (!lines[0].startsWith("HTTP/1.1 200")) {
            throw new IOException("expected 'HTTP/1.1 200', the server answered '" + lines[0] + "'");
        }
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i].toLowerCase(Locale.ROOT);
            if (line.startsWith("transfer-encoding:") && line.substring(18).strip().equals("chunked")) {
                return;
            }
        }
        throw new IOException("expected a chunked body (transfer-encoding: chunked), the head was: " + head);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
