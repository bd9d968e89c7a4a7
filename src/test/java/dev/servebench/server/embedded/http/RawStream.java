package dev.servebench.server.embedded.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/** A bare HTTP/1.1 request on its own socket, read incrementally, so a test can hang up mid-stream. */
final class RawStream implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();

    RawStream(int port, String path, String json) throws IOException {
        this(port, path, json, 0);
    }

    /** @param receiveBuffer SO_RCVBUF to ask for before connecting (a client that reads slowly), 0 = default */
    RawStream(int port, String path, String json, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(new java.net.InetSocketAddress("127.0.0.1", port));
        socket.setSoTimeout(5_000);
        byte[] body = json.getBytes(StandardCharsets.UTF_8);
        String head = "POST " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length + "\r\n\r\n";
        socket.getOutputStream().write(head.getBytes(StandardCharsets.US_ASCII));
        socket.getOutputStream().write(body);
        socket.getOutputStream().flush();
        in = socket.getInputStream();
    }

    /** Reads until the response so far contains {@code count} occurrences of {@code marker}; returns it. */
    String readUntil(String marker, int count) throws IOException {
        byte[] buffer = new byte[4096];
        while (occurrences(text(), marker) < count) {
            int n = in.read(buffer);
            if (n < 0) {
                throw new IOException("stream ended before " + count + " x " + marker + ": " + text());
            }
            received.write(buffer, 0, n);
        }
        return text();
    }

    /** Whether no byte arrives for {@code period} (reads nothing otherwise kept). */
    boolean quietFor(java.time.Duration period) throws IOException {
        socket.setSoTimeout((int) period.toMillis());
        try {
            int b = in.read();
            if (b >= 0) {
                received.write(b);
            }
            return false;
        } catch (java.net.SocketTimeoutException e) {
            return true;
        } finally {
            socket.setSoTimeout(5_000);
        }
    }

    String text() {
        return received.toString(StandardCharsets.UTF_8);
    }

    static int occurrences(String text, String marker) {
        int n = 0;
        for (int i = text.indexOf(marker); i >= 0; i = text.indexOf(marker, i + marker.length())) {
            n++;
        }
        return n;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
