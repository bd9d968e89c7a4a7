package dev.servebench.spec;

import dev.servebench.metric.GoodputSlo;
import dev.servebench.metric.InputTokenSource;
import dev.servebench.metric.TokenSource;
import java.util.Objects;
import java.util.Optional;

/**
 * Choices that change metric values ({@code servebench run}'s {@code --token-source},
 * {@code --input-token-source}, {@code --goodput}).
 *
 * @param tokenSource      where each request's output length comes from
 * @param inputTokenSource where the SGLang input metrics take input lengths from
 * @param goodput          vLLM goodput objectives; {@code request_goodput} is absent (not judged) without them
 */
public record MetricsSpec(TokenSource tokenSource, InputTokenSource inputTokenSource, Optional<GoodputSlo> goodput) {

    /** SGLang's definitions, no goodput: what a spec without {@code metrics:} and a plain run measure. */
    public static final MetricsSpec DEFAULTS = new MetricsSpec(TokenSource.SERVER_USAGE, InputTokenSource.DATASET,
            Optional.empty());

    public MetricsSpec {
        Objects.requireNonNull(tokenSource, "tokenSource");
        Objects.requireNonNull(inputTokenSource, "inputTokenSource");
        Objects.requireNonNull(goodput, "goodput");
    }

    /** The YAML and command-line name of a token source: {@code usage} or {@code chunks}. */
    public static String label(TokenSource source) {
        return switch (source) {
            case SERVER_USAGE -> "usage";
            case CHUNK_COUNT -> "chunks";
        };
    }

    /** The YAML and command-line name of an input token source: {@code dataset} or {@code usage}. */
    public static String label(InputTokenSource source) {
        return switch (source) {
            case DATASET -> "dataset";
            case SERVER_USAGE -> "usage";
        };
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static TokenSource tokenSource(String label) {
        return switch (label) {
            case "usage" -> TokenSource.SERVER_USAGE;
            case "chunks" -> TokenSource.CHUNK_COUNT;
            default -> throw new IllegalArgumentException("token source must be 'usage' or 'chunks', got '" + label + "'");
        };
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static InputTokenSource inputTokenSource(String label) {
        return switch (label) {
            case "dataset" -> InputTokenSource.DATASET;
            case "usage" -> InputTokenSource.SERVER_USAGE;
            default -> throw new IllegalArgumentException(
                    "input token source must be 'dataset' or 'usage', got '" + label + "'");
        };
    }
}
