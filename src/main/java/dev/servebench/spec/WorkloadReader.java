package dev.servebench.spec;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.client.Backend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Reads {@code workload:}; its {@code dataset} decides which length keys are allowed. */
final class WorkloadReader {

    private static final List<String> COMMON_KEYS = List.of("dataset", "prompts", "seed", "prompt_format", "ignore_eos",
            "tokenizer", "extra_request_body");
    private static final List<String> RANDOM_KEYS = List.of("input_len", "output_len", "range_ratio", "token_id_base",
            "vocab_span");
    private static final List<String> SHAREGPT_KEYS = List.of("path", "output_len");
    private static final List<String> PROMPTS_KEYS = List.of("per_concurrency", "min", "max");

    private WorkloadReader() {
    }

    /**
     * The workload, or empty when any of it was wrong (its errors recorded). A wrong or missing
     * {@code dataset} stops it (which keys are allowed depends on it); otherwise each key is checked.
     *
     * @param sweep   empty when the sweep is wrong: {@code per_concurrency} is then not checked against it
     * @param backend empty when the target is wrong: {@code prompt_format: ids} is then not checked against it
     */
    static Optional<WorkloadSpec> read(YamlNode node, Optional<SweepSpec> sweep, Optional<Backend> backend,
            Path specDirectory, SpecErrors errors) {
        if (!(node instanceof YamlNode.Mapping mapping)) {
            throw Values.expected(node, "a mapping with 'dataset: random' or 'dataset: sharegpt' and its keys");
        }
        YamlNode.Entry datasetEntry = mapping.entries().get("dataset");
        if (datasetEntry == null) {
            throw new SpecException(mapping.position(), "workload: missing required key 'dataset' (random or sharegpt)");
        }
        String datasetName = Values.string(datasetEntry.value());
        List<String> keys = new ArrayList<>(COMMON_KEYS);
        switch (datasetName) {
            case "random" -> keys.addAll(RANDOM_KEYS);
            case "sharegpt" -> keys.addAll(SHAREGPT_KEYS);
            default -> throw Values.expected(datasetEntry.value(), "random or sharegpt");
        }
        Fields fields = Fields.of(mapping, "workload (dataset " + datasetName + ")", keys, errors);
        int before = errors.count();
        Optional<DatasetSpec> dataset = datasetName.equals("random") ? random(fields, errors)
                : shareGpt(fields, specDirectory, errors);
        Optional<PromptCount> prompts = errors.read(() -> fields.optional("prompts").map(n -> prompts(n, sweep, errors))
                .orElse(new PromptCount.Fixed(WorkloadSpec.DEFAULT_PROMPTS)));
        Optional<Long> seed = errors.read(() -> fields.optional("seed").map(Values::longInteger)
                .orElse(WorkloadSpec.DEFAULT_SEED));
        Optional<PromptFormat> format = errors.read(() -> fields.optional("prompt_format")
                .map(n -> promptFormat(n, datasetName, backend)).orElse(PromptFormat.AUTO));
        Optional<Boolean> ignoreEos = errors.read(() -> fields.bool("ignore_eos", true));
        Optional<Optional<Path>> tokenizer = errors.read(() -> fields.optional("tokenizer")
                .map(n -> Values.path(n, specDirectory)));
        Optional<ObjectNode> extraBody = errors.read(() -> fields.optional("extra_request_body")
                .map(Values::jsonObject).orElse(JsonNodeFactory.instance.objectNode()));
        if (errors.count() > before) {
            return Optional.empty();
        }
        return Optional.of(new WorkloadSpec(dataset.orElseThrow(), prompts.orElseThrow(), seed.orElseThrow(),
                format.orElseThrow(), ignoreEos.orElseThrow(), tokenizer.orElseThrow(), extraBody.orElseThrow()));
    }

    private static Optional<DatasetSpec> random(Fields fields, SpecErrors errors) {
        Optional<Integer> input = errors.read(() -> Values.integer(fields.required("input_len"), 1, Integer.MAX_VALUE));
        Optional<Integer> output = errors.read(() -> Values.integer(fields.required("output_len"), 1, Integer.MAX_VALUE));
        Optional<Double> rangeRatio = errors.read(() -> fields.number("range_ratio", 0, 1,
                RandomDatasetSpec.DEFAULT_RANGE_RATIO));
        Optional<Integer> base = errors.read(() -> fields.integer("token_id_base", 0, Integer.MAX_VALUE,
                PromptTokenIds.DEFAULT_BASE));
        Optional<Integer> span = errors.read(() -> fields.integer("vocab_span", 1, Integer.MAX_VALUE,
                PromptTokenIds.DEFAULT_SPAN));
        if (input.isEmpty() || output.isEmpty() || rangeRatio.isEmpty() || base.isEmpty() || span.isEmpty()) {
            return Optional.empty();
        }
        // Either key fixes the range (the other keeps its default), as either flag does on the command line.
        Optional<PromptTokenIds> tokenIds = Optional.empty();
        if (fields.has("token_id_base") || fields.has("vocab_span")) {
            Optional<PromptTokenIds> read = errors.read(() -> {
                try {
                    return new PromptTokenIds(base.get(), span.get());
                } catch (IllegalArgumentException e) {
                    throw Values.error(fields.optional("vocab_span").or(() -> fields.optional("token_id_base"))
                            .orElseThrow(), e.getMessage());
                }
            });
            if (read.isEmpty()) {
                return Optional.empty();
            }
            tokenIds = read;
        }
        return Optional.of(new RandomDatasetSpec(input.get(), output.get(), rangeRatio.get(), tokenIds));
    }

    private static Optional<DatasetSpec> shareGpt(Fields fields, Path specDirectory, SpecErrors errors) {
        Optional<Path> path = errors.read(() -> Values.path(fields.required("path"), specDirectory));
        Optional<OptionalInt> output = errors.read(() -> fields.optional("output_len")
                .map(n -> OptionalInt.of(Values.integer(n, 1, Integer.MAX_VALUE))).orElse(OptionalInt.empty()));
        if (path.isEmpty() || output.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new ShareGptDatasetSpec(path.get(), output.get()));
    }

    /** {@code prompts: 1000}, or {@code prompts: {per_concurrency: 4, min: 32, max: 4096}}. */
    private static PromptCount prompts(YamlNode node, Optional<SweepSpec> sweep, SpecErrors errors) {
        if (!(node instanceof YamlNode.Mapping)) {
            if (node instanceof YamlNode.Scalar scalar && scalar.type() == YamlNode.ScalarType.INTEGER) {
                return new PromptCount.Fixed(Values.integer(node, 1, Integer.MAX_VALUE));
            }
            throw Values.expected(node, "a request count >= 1, or a mapping with per_concurrency, min, max");
        }
        Fields fields = Fields.of(node, "workload.prompts", PROMPTS_KEYS, errors);
        int perConcurrency = Values.integer(fields.required("per_concurrency"), 1, Integer.MAX_VALUE);
        int min = fields.integer("min", 1, Integer.MAX_VALUE, 1);
        int max = fields.integer("max", min, Integer.MAX_VALUE, Integer.MAX_VALUE);
        if (sweep.isPresent() && sweep.get().concurrencies().isEmpty()) {
            throw Values.error(node, "per_concurrency needs a concurrency cap at every load point, but the sweep has"
                    + " no 'concurrency' list; give a fixed count instead");
        }
        return new PromptCount.Scaled(perConcurrency, min, max);
    }

    private static PromptFormat promptFormat(YamlNode node, String datasetName, Optional<Backend> backend) {
        String text = Values.string(node);
        Optional<PromptFormat> format = Arrays.stream(PromptFormat.values())
                .filter(f -> f.label().equals(text)).findFirst();
        if (format.isEmpty()) {
            throw Values.expected(node, "auto, ids or text");
        }
        if (format.get() == PromptFormat.IDS && backend.isPresent() && !backend.get().endpoint().acceptsTokenIds()) {
            throw Values.error(node, "ids: backend " + backend.get() + " (" + backend.get().endpoint().path()
                    + ") accepts text prompts only");
        }
        if (format.get() == PromptFormat.IDS && !datasetName.equals("random")) {
            throw Values.error(node, "ids: only random prompts can be sent as token ids");
        }
        return format.get();
    }
}
