package dev.servebench.testserver;

import java.time.Duration;
import java.util.Locale;
import java.util.Objects;

/**
 * How the server treats connections, to test a client against what real servers do: uvicorn (vLLM, SGLang)
 * closes idle keep-alive connections and answers errors with a Content-Length body; proxies and crashed
 * handlers close after a response without saying so; old proxies speak HTTP/1.0. The default,
 * {@link #keepAlive()}, keeps every connection open as long as the client wants.
 *
 * @param closeAfterResponses after this many complete responses on a connection the server closes it (FIN)
 *                            without a {@code Connection: close} header; 0 = never, 1 = after every response
 * @param announceClose       every response carries {@code Connection: close} and the server closes after it
 * @param http10              responses are {@code HTTP/1.0}: no chunked encoding, a stream ends when the server
 *                            closes the connection, which it does after every response
 * @param errorFraming        body framing of error answers (4xx/5xx); Content-Length is what uvicorn sends
 * @param wholeFraming        body framing of non-streaming 200 answers ({@code stream: false}, /v1/models,
 *                            /health)
 * @param idleTimeout         a connection with no request in flight for this long is closed (FIN, no notice),
 *                            like uvicorn's {@code timeout_keep_alive}; zero = never
 * @param slowStart           for this long after start every request is answered 503 with a JSON error body,
 *                            like a server still loading its model; zero = ready at once
 */
public record ConnectionBehavior(int closeAfterResponses, boolean announceClose, boolean http10,
                                 BodyFraming errorFraming, BodyFraming wholeFraming, Duration idleTimeout,
                                 Duration slowStart) {

    /** How a body with a known length is delimited. */
    public enum BodyFraming {
        CONTENT_LENGTH,
        CHUNKED;

        /** {@code content-length} or {@code chunked}, as on the command line. */
        public static BodyFraming parse(String text) {
            return switch (text.toLowerCase(Locale.ROOT)) {
                case "content-length" -> CONTENT_LENGTH;
                case "chunked" -> CHUNKED;
                default -> throw new IllegalArgumentException("body framing (" + text
                        + ") must be 'chunked' or 'content-length'");
            };
        }
    }

    public ConnectionBehavior {
        if (closeAfterResponses < 0) {
            throw new IllegalArgumentException("closeAfterResponses (" + closeAfterResponses + ") must be >= 0");
        }
        Objects.requireNonNull(errorFraming, "errorFraming");
        Objects.requireNonNull(wholeFraming, "wholeFraming");
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(slowStart, "slowStart");
        // HTTP/1.0 has no chunked encoding; a client would read the chunk sizes as body bytes.
        if (http10 && (errorFraming == BodyFraming.CHUNKED || wholeFraming == BodyFraming.CHUNKED)) {
            throw new IllegalArgumentException("http10 cannot use chunked framing (errorFraming " + errorFraming
                    + ", wholeFraming " + wholeFraming + ")");
        }
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout (" + idleTimeout + ") must be >= 0");
        }
        if (slowStart.isNegative()) {
            throw new IllegalArgumentException("slowStart (" + slowStart + ") must be >= 0");
        }
    }

    /** Keep-alive until the client closes; errors and whole bodies with Content-Length; ready at once. */
    public static ConnectionBehavior keepAlive() {
        return new ConnectionBehavior(0, false, false, BodyFraming.CONTENT_LENGTH, BodyFraming.CONTENT_LENGTH,
                Duration.ZERO, Duration.ZERO);
    }

    public ConnectionBehavior withCloseAfterResponses(int n) {
        return new ConnectionBehavior(n, announceClose, http10, errorFraming, wholeFraming, idleTimeout,
                slowStart);
    }

    public ConnectionBehavior withAnnounceClose(boolean announce) {
        return new ConnectionBehavior(closeAfterResponses, announce, http10, errorFraming, wholeFraming,
                idleTimeout, slowStart);
    }

    public ConnectionBehavior withHttp10(boolean http10) {
        return new ConnectionBehavior(closeAfterResponses, announceClose, http10, errorFraming, wholeFraming,
                idleTimeout, slowStart);
    }

    public ConnectionBehavior withErrorFraming(BodyFraming framing) {
        return new ConnectionBehavior(closeAfterResponses, announceClose, http10, framing, wholeFraming,
                idleTimeout, slowStart);
    }

    public ConnectionBehavior withWholeFraming(BodyFraming framing) {
        return new ConnectionBehavior(closeAfterResponses, announceClose, http10, errorFraming, framing,
                idleTimeout, slowStart);
    }

    public ConnectionBehavior withIdleTimeout(Duration timeout) {
        return new ConnectionBehavior(closeAfterResponses, announceClose, http10, errorFraming, wholeFraming,
                timeout, slowStart);
    }

    public ConnectionBehavior withSlowStart(Duration slowStart) {
        return new ConnectionBehavior(closeAfterResponses, announceClose, http10, errorFraming, wholeFraming,
                idleTimeout, slowStart);
    }
}
