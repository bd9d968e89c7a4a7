package dev.servebench.testserver;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test client on a plain socket: sees exact wire bytes, HTTP chunk boundaries, resets and stalls. */
final class RawHttpClient implements AutoCloseable {

    /**
     * One response as read off the wire.
     *
     * @param wire       every byte of the response, status line to chunked terminator
     * @param httpChunks chunk payloads of a chunked body, in order
     */
    record Response(int status, Map<String, String> headers, byte[] body, List<byte[]> httpChunks, byte[] wire) {
        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private ByteArrayOutputStream wire = new ByteArrayOutputStream();

    RawHttpClient(int port, int readTimeoutMillis) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(readTimeoutMillis);
        in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
        out = socket.getOutputStream();
    }

    Socket socket() {
        return socket;
    }

    /** The bytes of a POST with a JSON body; several may be concatenated for pipelining. */
    static byte[] post(String path, String json, String... extraHeaders) {
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        StringBuilder sb = new StringBuilder("POST ").append(path).append(" HTTP/1.1\r\nhost: localhost\r\n")
                .append("content-type: application/json\r\ncontent-length: ").append(body.length).append("\r\n");
        for (String h : extraHeaders) {
            sb.append(h).append("\r\n");
        }
        byte[] head = sb.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + body.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(body, 0, all, head.length, body.length);
        return all;
    }

    static byte[] get(String path) {
        return ("GET " + path + " HTTP/1.1\r\nhost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    void send(byte[] request) throws IOException {
        out.write(request);
        out.flush();
    }

    /**
     * Reads one complete response: a chunked body, a content-length body, or else (HTTP/1.0 style) everything
     * up to the server's close.
     */
    Response read() throws IOException {
        wire = new ByteArrayOutputStream();
        Head head = readHead();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        List<byte[]> chunks = new ArrayList<>();
        if ("chunked".equals(head.headers().get("transfer-encoding"))) {
            for (byte[] chunk = readChunk(); chunk != null; chunk = readChunk()) {
                chunks.add(chunk);
                body.writeBytes(chunk);
            }
        } else if (head.headers().containsKey("content-length")) {
            body.writeBytes(bytes(Integer.parseInt(head.headers().get("content-length"))));
        } else {
            byte[] rest = in.readAllBytes();
            wire.writeBytes(rest);
            body.writeBytes(rest);
        }
        return new Response(head.status(), head.headers(), body.toByteArray(), chunks, wire.toByteArray());
    }

    record Head(int status, Map<String, String> headers) {
    }

    /** Status line and headers of the next response. */
    Head readHead() throws IOException {
        String status = line();
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            headers.put(h.substring(0, colon).trim().toLowerCase(), h.substring(colon + 1).trim());
        }
        return new Head(Integer.parseInt(status.split(" ")[1]), headers);
    }

    /** The next chunk's payload, or null for the terminating zero-size chunk. */
    byte[] readChunk() throws IOException {
        int size = Integer.parseInt(line(), 16);
        byte[] chunk = size == 0 ? null : bytes(size);
        if (!line().isEmpty()) {
            throw new IOException("chunk not followed by CRLF");
        }
        return chunk;
    }

    /** One byte, -1 at end of stream; a read timeout surfaces as {@link java.net.SocketTimeoutException}. */
    int readByte() throws IOException {
        return in.read();
    }

    private String line() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int c = in.read(); ; c = in.read()) {
            if (c < 0) {
                throw new IOException("end of stream inside a line: '" + sb + "'");
            }
            wire.write(c);
            if (c == '\n' && !sb.isEmpty() && sb.charAt(sb.length() - 1) == '\r') {
                sb.setLength(sb.length() - 1);
                return sb.toString();
            }
            sb.append((char) c);
        }
    }

    private byte[] bytes(int n) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length < n) {
            throw new IOException("end of stream after " + b.length + " of " + n + " bytes");
        }
        wire.writeBytes(b);
        return b;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
