package dev.servebench.client;

import java.util.function.Supplier;

/** The streaming APIs servebench speaks. */
public enum Endpoint {
    COMPLETIONS("/v1/completions", true, CompletionsChunkParser::new),
    CHAT_COMPLETIONS("/v1/chat/completions", false, ChatChunkParser::new),
    SGLANG_GENERATE("/generate", true, GenerateChunkParser::new);

    private final String path;
    private final boolean acceptsTokenIds;
    private final Supplier<ChunkParser> parsers;

    Endpoint(String path, boolean acceptsTokenIds, Supplier<ChunkParser> parsers) {
        this.path = path;
        this.acceptsTokenIds = acceptsTokenIds;
        this.parsers = parsers;
    }

    public String path() {
        return path;
    }

    /** Whether a prompt may be sent as token ids (exact input length, no tokenizer needed). */
    public boolean acceptsTokenIds() {
        return acceptsTokenIds;
    }

    public ChunkParser newParser() {
        return parsers.get();
    }
}
