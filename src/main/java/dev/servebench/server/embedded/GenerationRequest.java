package dev.servebench.server.embedded;

import java.util.Objects;
import java.util.Optional;

/**
 * One generation.
 *
 * @param prompt      token ids (BOS excluded; the engine adds it) — the HTTP layer tokenizes text prompts
 * @param maxTokens   tokens to generate at most (>= 1)
 * @param minTokens   tokens to generate before EOS may end the stream (0 = none)
 * @param ignoreEos   keep generating through EOS until maxTokens
 * @param temperature sampling temperature (0 = greedy)
 * @param seed        sampling seed, when given
 */
public record GenerationRequest(int[] prompt, int maxTokens, int minTokens, boolean ignoreEos, double temperature,
                                Optional<Long> seed) {
    public GenerationRequest {
        Objects.requireNonNull(prompt, "prompt");
        prompt = prompt.clone();
        if (maxTokens < 1) {
            throw new IllegalArgumentException("max_tokens (" + maxTokens + ") must be >= 1");
        }
        if (minTokens < 0 || minTokens > maxTokens) {
            throw new IllegalArgumentException("min_tokens (" + minTokens + ") must be in [0, max_tokens=" + maxTokens + "]");
        }
        if (!(temperature >= 0) || Double.isInfinite(temperature)) {
            throw new IllegalArgumentException("temperature (" + temperature + ") must be a finite number >= 0");
        }
        Objects.requireNonNull(seed, "seed");
    }

    @Override
    public int[] prompt() {
        return prompt.clone();
    }

    public int promptLength() {
        return prompt.length;
    }
}
