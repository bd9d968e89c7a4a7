package dev.servebench.results;

import dev.servebench.metric.TokenSource;
import java.util.Objects;

/**
 * What was run, stored with every summary so a number never travels without its load definition.
 *
 * @param baseUrl           server base URL (no credentials)
 * @param backend           bench_serving backend name
 * @param model             model name sent ("" when none)
 * @param datasetName       random or sharegpt
 * @param randomInputLen    --random-input-len
 * @param randomOutputLen   --random-output-len
 * @param randomRangeRatio  --random-range-ratio
 * @param numPrompts        measured requests per load point
 * @param seed              dataset and arrival seed
 * @param tokenIdPrompts    whether prompts were sent as token ids (exact input lengths)
 * @param tokenSource       where output token counts come from
 * @param tag               free-form label
 * @param target            {@code url} (a server given by --base-url) or {@code embedded} (started in this
 *                          process, so the process CPU includes the engine)
 */
public record RunDescription(String baseUrl, String backend, String model, String datasetName, int randomInputLen,
                             int randomOutputLen, double randomRangeRatio, int numPrompts, long seed,
                             boolean tokenIdPrompts, TokenSource tokenSource, String tag, String target) {
    public RunDescription {
        Objects.requireNonNull(baseUrl, "baseUrl");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(datasetName, "datasetName");
        Objects.requireNonNull(tokenSource, "tokenSource");
        Objects.requireNonNull(tag, "tag");
        Objects.requireNonNull(target, "target");
    }

    public boolean embeddedInProcess() {
        return target.equals("embedded");
    }
}
