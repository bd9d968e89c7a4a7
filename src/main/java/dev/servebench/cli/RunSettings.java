package dev.servebench.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.client.Backend;
import dev.servebench.metric.MetricOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** Validated settings of one {@code servebench run}. The API key is held but never shown by toString. */
public record RunSettings(
        Optional<String> baseUrl,
        Backend backend,
        Optional<String> model,
        Optional<String> apiKey,
        String datasetName,
        Optional<Path> datasetPath,
        int randomInputLen,
        int randomOutputLen,
        double randomRangeRatio,
        Optional<Integer> sharegptOutputLen,
        String promptFormat,
        Optional<Path> tokenizer,
        int vocabSpan,
        int tokenIdBase,
        int numPrompts,
        List<Integer> maxConcurrencies,
        List<Double> requestRates,
        double burstiness,
        long seed,
        int warmupRequests,
        boolean ignoreEos,
        ObjectNode extraBody,
        MetricOptions metricOptions,
        Duration stallTimeout,
        int clientThreads,
        Optional<Path> outputDir,
        Optional<String> tag,
        boolean progress,
        dev.servebench.gguf.WeightType embeddedWeights,
        Optional<Integer> embeddedSlots,
        RunGuards guards) {

    /**
     * What keeps a run honest and bounded.
     *
     * @param minSuccessRate  a load point whose successful share (cancelled requests aside) is below this is INVALID
     * @param maxDuration     a load point's time limit (--max-duration), after which it is cut and reported as cut
     * @param requestTimeout  a request's total time limit (--request-timeout)
     * @param vocabularyGiven whether the token-id range of random prompts was set on the command line (then it is
     *                        used as given, else it is learnt from the server where the server says it)
     */
    public record RunGuards(double minSuccessRate, Optional<Duration> maxDuration, Optional<Duration> requestTimeout,
                            boolean vocabularyGiven) {
        public static final RunGuards DEFAULTS = new RunGuards(0.99, Optional.empty(), Optional.empty(), false);

        public RunGuards {
            if (!(minSuccessRate >= 0 && minSuccessRate <= 1)) {
                throw new IllegalArgumentException("--min-success-rate (" + minSuccessRate + ") must be within [0, 1]");
            }
            Objects.requireNonNull(maxDuration, "maxDuration");
            Objects.requireNonNull(requestTimeout, "requestTimeout");
            maxDuration.ifPresent(d -> requirePositive("--max-duration", d));
            requestTimeout.ifPresent(d -> requirePositive("--request-timeout", d));
        }

        private static void requirePositive(String flag, Duration d) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(flag + " (" + d.toMillis() / 1000.0 + " s) must be > 0");
            }
        }
    }

    public RunSettings {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(tokenizer, "tokenizer");
        if (!datasetName.equals("random") && !datasetName.equals("sharegpt")) {
            throw new IllegalArgumentException("--dataset-name must be 'random' or 'sharegpt', got '" + datasetName + "'");
        }
        if (datasetName.equals("sharegpt") && datasetPath.isEmpty()) {
            throw new IllegalArgumentException("--dataset-name sharegpt needs --dataset-path FILE");
        }
        if (!List.of("auto", "ids", "text").contains(promptFormat)) {
            throw new IllegalArgumentException("--prompt-format must be auto, ids or text, got '" + promptFormat + "'");
        }
        if (promptFormat.equals("ids") && !backend.endpoint().acceptsTokenIds()) {
            throw new IllegalArgumentException("--prompt-format ids: backend " + backend + " ("
                    + backend.endpoint().path() + ") accepts text prompts only");
        }
        if (numPrompts < 1) {
            throw new IllegalArgumentException("--num-prompts (" + numPrompts + ") must be >= 1");
        }
        for (int c : maxConcurrencies) {
            if (c < 1) {
                throw new IllegalArgumentException("--max-concurrency (" + c + ") must be >= 1");
            }
        }
        if (requestRates.isEmpty()) {
            throw new IllegalArgumentException("--request-rate needs at least one value");
        }
        if (warmupRequests < 0) {
            throw new IllegalArgumentException("--warmup-requests (" + warmupRequests + ") must be >= 0");
        }
        if (clientThreads < 1) {
            throw new IllegalArgumentException("--client-threads (" + clientThreads + ") must be >= 1");
        }
        if (!(burstiness > 0)) {
            throw new IllegalArgumentException("--burstiness (" + burstiness + ") must be > 0");
        }
        embeddedSlots.ifPresent(slots -> {
            if (slots < 1 || slots > 256) {
                throw new IllegalArgumentException("--embedded-slots (" + slots + ") must be in [1, 256]");
            }
        });
        Objects.requireNonNull(guards, "guards");
        maxConcurrencies = List.copyOf(maxConcurrencies);
        requestRates = List.copyOf(requestRates);
    }

    /** The same settings with random prompt ids drawn from {@code [idBase, idBase + span)}. */
    public RunSettings withVocabulary(int span, int idBase) {
        return new RunSettings(baseUrl, backend, model, apiKey, datasetName, datasetPath, randomInputLen,
                randomOutputLen, randomRangeRatio, sharegptOutputLen, promptFormat, tokenizer, span, idBase, numPrompts,
                maxConcurrencies, requestRates, burstiness, seed, warmupRequests, ignoreEos, extraBody, metricOptions,
                stallTimeout, clientThreads, outputDir, tag, progress, embeddedWeights, embeddedSlots, guards);
    }

    /** Slots of the embedded engine: as asked, else the largest concurrency cap, else 16. */
    public int embeddedSlotCount() {
        return embeddedSlots.orElseGet(() -> maxConcurrencies.stream().max(Integer::compare).orElse(16));
    }

    /** Whether prompts go out as token ids. */
    public boolean tokenIdPrompts() {
        return datasetName.equals("random") && switch (promptFormat) {
            case "ids" -> true;
            case "text" -> false;
            default -> backend.endpoint().acceptsTokenIds();
        };
    }

    @Override
    public String toString() {
        return "RunSettings[baseUrl=" + baseUrl + ", backend=" + backend + ", model=" + model + ", apiKey="
                + (apiKey.isPresent() ? "(set)" : "(none)") + ", dataset=" + datasetName + ", numPrompts=" + numPrompts
                + ", maxConcurrencies=" + maxConcurrencies + ", requestRates=" + requestRates + "]";
    }
}
