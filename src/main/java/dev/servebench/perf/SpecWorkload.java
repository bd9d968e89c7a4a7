package dev.servebench.perf;

import dev.servebench.metric.DatasetPromptLengths;
import dev.servebench.metric.MetricOptions;
import dev.servebench.results.RunDescription;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.RandomDatasetSpec;
import dev.servebench.spec.ShareGptDatasetSpec;
import dev.servebench.workload.Dataset;
import dev.servebench.workload.HfTokenizer;
import dev.servebench.workload.RandomDataset;
import dev.servebench.workload.ShareGptDataset;
import java.util.Optional;

/** A spec's workload made concrete: its dataset, how exact its prompt lengths are, and how summaries describe it. */
final class SpecWorkload {

    private final PerformanceSpec spec;
    private final Optional<HfTokenizer> tokenizer;
    private final SpecRunner.Vocabulary vocabulary;

    SpecWorkload(PerformanceSpec spec, Optional<HfTokenizer> tokenizer, SpecRunner.Vocabulary vocabulary) {
        this.spec = spec;
        this.tokenizer = tokenizer;
        this.vocabulary = vocabulary;
    }

    /** Whether random prompts go out as token ids: asked for, or where the endpoint takes them. */
    static boolean tokenIdPrompts(PerformanceSpec spec) {
        return spec.workload().dataset() instanceof RandomDatasetSpec && switch (spec.workload().promptFormat()) {
            case IDS -> true;
            case TEXT -> false;
            case AUTO -> spec.target().backend().endpoint().acceptsTokenIds();
        };
    }

    Dataset dataset(int prompts) {
        return switch (spec.workload().dataset()) {
            case RandomDatasetSpec random -> {
                RandomDataset dataset = RandomDataset.of(prompts, random.inputLen(), random.outputLen(),
                                random.rangeRatio())
                        .withFormat(tokenIdPrompts(spec) ? RandomDataset.PromptFormat.TOKEN_IDS
                                : RandomDataset.PromptFormat.TEXT)
                        .withVocabulary(vocabulary.span(), vocabulary.base());
                yield tokenizer.map(dataset::withTokenizer).orElse(dataset);
            }
            case ShareGptDatasetSpec sharegpt -> {
                ShareGptDataset dataset = tokenizer.map(ShareGptDataset.of(sharegpt.path(), prompts)::withTokenizer)
                        .orElse(ShareGptDataset.of(sharegpt.path(), prompts));
                yield sharegpt.outputLen().isPresent() ? dataset.withFixedOutputLen(sharegpt.outputLen().getAsInt())
                        : dataset;
            }
        };
    }

    /** The spec's metric choices, with what this run knows about its prompts and outputs. */
    MetricOptions metricOptions() {
        MetricOptions options = MetricOptions.of(spec.metrics().tokenSource())
                .withInputTokenSource(spec.metrics().inputTokenSource())
                .withPromptLengths(promptLengths())
                .withRetokenizedOutput(tokenizer.isPresent());
        return spec.metrics().goodput().map(options::withGoodput).orElse(options);
    }

    /** Token ids are exact; text (ShareGPT always) is counted by the tokenizer when there is one, else estimated. */
    private DatasetPromptLengths promptLengths() {
        if (tokenIdPrompts(spec)) {
            return DatasetPromptLengths.EXACT;
        }
        return tokenizer.isPresent() ? DatasetPromptLengths.TOKENIZED : DatasetPromptLengths.ESTIMATED;
    }

    RunDescription description(String baseUrl, Optional<String> model, int prompts, String tag, String targetKind) {
        RandomDatasetSpec random = spec.workload().dataset() instanceof RandomDatasetSpec r ? r : null;
        return new RunDescription(baseUrl, spec.target().backend().cliName(), model.orElse(""),
                spec.workload().dataset().name(), random != null ? random.inputLen() : 0,
                random != null ? random.outputLen() : 0, random != null ? random.rangeRatio() : 0, prompts,
                spec.workload().seed(), tokenIdPrompts(spec), spec.metrics().tokenSource(), tag, targetKind);
    }
}
