package dev.servebench.testserver;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.HttpResponseStatus;

/**
 * HTTP/1.1 response framing written by hand: the server emits raw bytes so that a cached response is one
 * buffer and paced and cached answers are byte-identical on the wire. No Date or Server header, for the same
 * reason.
 */
final class HttpWire {

    static final String JSON = "application/json";
    static final String TEXT = "text/plain; charset=utf-8";
    static final String SSE = "text/event-stream; charset=utf-8";
    static final String CHUNKED_END = "0\r\n\r\n";

    private HttpWire() {
    }

    /** Status line and headers; {@code contentLength < 0} means chunked transfer encoding. */
    static String head(int status, String contentType, long contentLength, boolean close) {
        StringBuilder sb = new StringBuilder(128)
                .append("HTTP/1.1 ").append(status).append(' ')
                .append(HttpResponseStatus.valueOf(status).reasonPhrase()).append("\r\n")
                .append("content-type: ").append(contentType).append("\r\n");
        if (contentLength < 0) {
            sb.append("transfer-encoding: chunked\r\n");
        } else {
            sb.append("content-length: ").append(contentLength).append("\r\n");
        }
        if (close) {
            sb.append("connection: close\r\n");
        }
        return sb.append("\r\n").toString();
    }

    /** A complete response with a fixed-length body. */
    static String full(int status, String contentType, String body, boolean close) {
        return head(status, contentType, ByteBufUtil.utf8Bytes(body), close) + body;
    }

    static ByteBuf fullBuffer(ByteBufAllocator alloc, int status, String contentType, String body, boolean close) {
        String text = full(status, contentType, body, close);
        ByteBuf buf = alloc.buffer(ByteBufUtil.utf8MaxBytes(text));
        ByteBufUtil.writeUtf8(buf, text);
        return buf;
    }

    /** An OpenAI-style JSON error answer. */
    static ByteBuf error(ByteBufAllocator alloc, int status, String type, String message, boolean close) {
        return fullBuffer(alloc, status, JSON, Json.errorBody(message, type, status), close);
    }
}
