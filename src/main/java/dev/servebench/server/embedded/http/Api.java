package dev.servebench.server.embedded.http;

/** The two generation endpoints; they differ only in request fields and in the shape of their JSON. */
enum Api {
    COMPLETIONS("/v1/completions", "cmpl-"),
    CHAT("/v1/chat/completions", "chatcmpl-");

    private final String path;
    private final String idPrefix;

    Api(String path, String idPrefix) {
        this.path = path;
        this.idPrefix = idPrefix;
    }

    String path() {
        return path;
    }

    String idPrefix() {
        return idPrefix;
    }
}
