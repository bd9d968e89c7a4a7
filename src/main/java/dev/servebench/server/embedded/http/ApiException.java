package dev.servebench.server.embedded.http;

/**
 * A request the server refuses, rendered as an OpenAI-style error object:
 * {@code {"error":{"message":…,"type":…,"param":…,"code":…}}}. Thrown anywhere before the response starts.
 */
final class ApiException extends RuntimeException {

    private final int status;
    private final String type;
    private final String param;
    private final String code;

    ApiException(int status, String type, String message, String param, String code) {
        super(message, null, false, false); // control flow, not a bug: no stack trace
        this.status = status;
        this.type = type;
        this.param = param;
        this.code = code;
    }

    /** 400 invalid_request_error naming {@code param} (null when no single field is at fault). */
    static ApiException badRequest(String message, String param) {
        return new ApiException(400, "invalid_request_error", message, param, null);
    }

    static ApiException unavailable(String message) {
        return new ApiException(503, "server_error", message, null, null);
    }

    int status() {
        return status;
    }

    String json() {
        return errorJson(getMessage(), type, param, code);
    }

    static String errorJson(String message, String type, String param, String code) {
        return "{\"error\":{\"message\":" + Json.quote(message) + ",\"type\":" + Json.quote(type) + ",\"param\":"
                + (param == null ? "null" : Json.quote(param)) + ",\"code\":" + (code == null ? "null" : Json.quote(code))
                + "}}";
    }
}
