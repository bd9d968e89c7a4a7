package dev.servebench.cli;

import dev.servebench.metric.InputTokenSource;
import dev.servebench.metric.TokenSource;
import dev.servebench.spec.MetricsSpec;

/**
 * The {@code --token-source} values: {@code usage} (server usage, chunk count as fallback) or {@code chunks};
 * and {@code --input-token-source}'s. The names are the spec's ({@code metrics:}), so flags and specs agree.
 */
final class TokenSourceOption {
    private TokenSourceOption() {}

    static TokenSource parse(String value) {
        try {
            return MetricsSpec.tokenSource(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--token-source must be 'usage' or 'chunks', got '" + value + "'");
        }
    }

    /** The {@code --input-token-source} values: {@code dataset} (SGLang's prompt_len) or {@code usage}. */
    static InputTokenSource parseInput(String value) {
        try {
            return MetricsSpec.inputTokenSource(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "--input-token-source must be 'dataset' or 'usage', got '" + value + "'");
        }
    }
}
