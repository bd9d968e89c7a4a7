package dev.servebench.record;

/** Closed set of reasons a request can fail; each maps to one documented client behaviour. */
public enum FailureKind {
    /** TCP connect failed (refused, unreachable, connect timeout). */
    CONNECT,
    /** The server answered with a non-200 status; the body is kept in the reason. */
    HTTP_STATUS,
    /** The connection closed or reset before the stream ended. */
    RESET,
    /** No byte arrived for longer than the request timeout. */
    TIMEOUT,
    /** A stream event was not valid JSON, or not the shape the endpoint defines. */
    PROTOCOL,
    /** The server sent an error object inside the stream. */
    SERVER_ERROR,
    /** The response ended cleanly but without the terminating {@code [DONE]} event. */
    INCOMPLETE,
    /** The run was stopped while the request was in flight. */
    CANCELLED
}
