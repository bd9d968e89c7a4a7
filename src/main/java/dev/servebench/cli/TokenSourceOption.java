package dev.servebench.cli;

import dev.servebench.metric.InputTokenSource;
import dev.servebench.metric.TokenSource;

/** The {@code --token-source} values: {@code usage} (server usage, chunk count as fallback) or {@code chunks}; and {@code --input-token-source}'s. */
final class TokenSourceOption {
    private TokenSourceOption() {}

    static TokenSource parse(String value) {
        return switch (value) {
            case "usage" -> TokenSource.SERVER_USAGE;
            case "chunks" -> TokenSource.CHUNK_COUNT;
            default -> throw new IllegalArgumentException("--token-source must be 'usage' or 'chunks', got '" + value + "'");
        };
    }

    /** The {@code --input-token-source} values: {@code dataset} (SGLang's prompt_len) or {@code usage}. */
    static InputTokenSource parseInput(String value) {
        return switch (value) {
            case "dataset" -> InputTokenSource.DATASET;
            case "usage" -> InputTokenSource.SERVER_USAGE;
            default -> throw new IllegalArgumentException(
                    "--input-token-source must be 'dataset' or 'usage', got '" + value + "'");
        };
    }
}
