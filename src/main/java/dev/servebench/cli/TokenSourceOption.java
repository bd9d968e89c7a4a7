package dev.servebench.cli;

import dev.servebench.metric.TokenSource;

/** The {@code --token-source} values: {@code usage} (server usage, chunk count as fallback) or {@code chunks}. */
final class TokenSourceOption {
    private TokenSourceOption() {}

    static TokenSource parse(String value) {
        return switch (value) {
            case "usage" -> TokenSource.SERVER_USAGE;
            case "chunks" -> TokenSource.CHUNK_COUNT;
            default -> throw new IllegalArgumentException("--token-source must be 'usage' or 'chunks', got '" + value + "'");
        };
    }
}
