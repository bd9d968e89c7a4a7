package dev.servebench.testserver;

import dev.servebench.testserver.ConnectionBehavior.BodyFraming;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.Objects;

/**
 * HTTP/1.x response framing written by hand: the server emits raw bytes so that a cached response is one
 * buffer and paced and cached answers are byte-identical on the wire. No Date or Server header, for the same
 * reason.
 */
final class HttpWire {

    static final String JSON = "application/json";
    static final String TEXT = "text/plain; charset=utf-8";
    static final String SSE = "text/event-stream; charset=utf-8";
    static final String CHUNKED_END = "0\r\n\r\n";

    /**
     * How one response is framed.
     *
     * @param http10        {@code HTTP/1.0} status line; a body of unknown length is ended by closing
     * @param announceClose a {@code connection: close} header (never with http10, where close is the default)
     * @param errors        framing of error bodies
     * @param whole         framing of non-streaming 200 bodies
     */
    record Framing(boolean http10, boolean announceClose, BodyFraming errors, BodyFraming whole) {

        Framing {
            Objects.requireNonNull(errors, "errors");
            Objects.requireNonNull(whole, "whole");
            if (http10 && announceClose) {
                throw new IllegalArgumentException("an HTTP/1.0 response closes anyway; announceClose is for 1.1");
            }
        }

        static Framing of(ConnectionBehavior b) {
            return new Framing(b.http10(), b.announceClose() && !b.http10(), b.errorFraming(), b.wholeFraming());
        }

        /** This framing for a response after which the server closes (the client asked for it, or must). */
        Framing closing() {
            return closes() ? this : new Framing(false, true, errors, whole);
        }

        /** Whether the connection ends after a response framed so. */
        boolean closes() {
            return http10 || announceClose;
        }
    }

    private HttpWire() {
    }

    /**
     * Status line and headers; {@code contentLength < 0} means chunked transfer encoding on HTTP/1.1 and no
     * length at all (the body ends at close) on HTTP/1.0.
     */
    static String head(Framing framing, int status, String contentType, long contentLength) {
        StringBuilder sb = new StringBuilder(128)
                .append(framing.http10() ? "HTTP/1.0 " : "HTTP/1.1 ").append(status).append(' ')
                .append(HttpResponseStatus.valueOf(status).reasonPhrase()).append("\r\n")
                .append("content-type: ").append(contentType).append("\r\n");
        if (contentLength >= 0) {
            sb.append("content-length: ").append(contentLength).append("\r\n");
        } else if (!framing.http10()) {
            sb.append("transfer-encoding: chunked\r\n");
        }
        if (framing.announceClose()) {
            sb.append("connection: close\r\n");
        }
        return sb.append("\r\n").toString();
    }

    /** A complete response with a body known up front, framed by Content-Length or as one HTTP chunk. */
    static String full(Framing framing, int status, String contentType, String body, BodyFraming bodyFraming) {
        if (bodyFraming == BodyFraming.CONTENT_LENGTH) {
            return head(framing, status, contentType, ByteBufUtil.utf8Bytes(body)) + body;
        }
        String chunk = body.isEmpty() ? "" : Integer.toHexString(ByteBufUtil.utf8Bytes(body)) + "\r\n" + body + "\r\n";
        return head(framing, status, contentType, -1) + chunk + CHUNKED_END;
    }

    static ByteBuf fullBuffer(ByteBufAllocator alloc, Framing framing, int status, String contentType, String body,
                              BodyFraming bodyFraming) {
        String text = full(framing, status, contentType, body, bodyFraming);
        ByteBuf buf = alloc.buffer(ByteBufUtil.utf8MaxBytes(text));
        ByteBufUtil.writeUtf8(buf, text);
        return buf;
    }

    /** An OpenAI-style JSON error answer, framed as the server frames errors. */
    static ByteBuf error(ByteBufAllocator alloc, Framing framing, int status, String type, String message) {
        return fullBuffer(alloc, framing, status, JSON, Json.errorBody(message, type, status), framing.errors());
    }
}
