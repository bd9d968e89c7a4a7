package dev.servebench.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.servebench.client.Backend;
import dev.servebench.client.RequestBodies;
import dev.servebench.metric.GoodputSlo;
import dev.servebench.metric.InputTokenSource;
import dev.servebench.metric.TokenSource;
import dev.servebench.server.EmbeddedTarget;
import dev.servebench.spec.ClientSpec;
import dev.servebench.spec.DatasetSpec;
import dev.servebench.spec.EmbeddedTargetSpec;
import dev.servebench.spec.MetricsSpec;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.PromptCount;
import dev.servebench.spec.PromptFormat;
import dev.servebench.spec.PromptTokenIds;
import dev.servebench.spec.RandomDatasetSpec;
import dev.servebench.spec.RepeatOrder;
import dev.servebench.spec.ShareGptDatasetSpec;
import dev.servebench.spec.SpecSource;
import dev.servebench.spec.SpecWriter;
import dev.servebench.spec.SweepSpec;
import dev.servebench.spec.TargetSpec;
import dev.servebench.spec.UrlTargetSpec;
import dev.servebench.spec.ValiditySpec;
import dev.servebench.spec.WorkloadSpec;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * {@code servebench run}: bench_serving's flags where they exist, plus ours. The flags describe a performance
 * spec without expectations ({@code --print-spec} writes it out), measured by the perf suite's own pipeline.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run load points against an OpenAI-compatible server and write named metrics and records.")
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--base-url", description = "Server base URL, e.g. http://127.0.0.1:30000.")
    String baseUrl;

    @Option(names = "--backend", defaultValue = "openai",
            description = "sglang, sglang-native, sglang-oai, sglang-oai-chat, vllm, vllm-chat, openai, openai-chat, "
                    + "lmdeploy, lmdeploy-chat (default: ${DEFAULT-VALUE}).")
    String backend;

    @Option(names = "--model", description = "Model name sent with each request (default: the first id of /v1/models).")
    String model;

    @Option(names = "--api-key", description = "Bearer token (default: env OPENAI_API_KEY). Never printed or written.")
    String apiKey;

    @Option(names = "--dataset-name", defaultValue = "random", description = "random or sharegpt (default: ${DEFAULT-VALUE}).")
    String datasetName;

    @Option(names = "--dataset-path", description = "ShareGPT JSON file (for --dataset-name sharegpt).")
    Path datasetPath;

    @Option(names = "--random-input-len", defaultValue = "1024", description = "Default: ${DEFAULT-VALUE}.")
    int randomInputLen;

    @Option(names = "--random-output-len", defaultValue = "1024", description = "Default: ${DEFAULT-VALUE}.")
    int randomOutputLen;

    @Option(names = "--random-range-ratio", defaultValue = "0.0",
            description = "Lengths uniform in [max(int(L*r),1), L] (SGLang semantics; default ${DEFAULT-VALUE}).")
    double randomRangeRatio;

    @Option(names = "--sharegpt-output-len", description = "Fixed output length for ShareGPT rows.")
    Integer sharegptOutputLen;

    @Option(names = "--prompt-format", defaultValue = "auto",
            description = "auto (token ids where the endpoint accepts them), ids or text (default: ${DEFAULT-VALUE}).")
    String promptFormat;

    @Option(names = "--tokenizer", description = "HuggingFace tokenizer.json, or a model directory holding one (never"
            + " downloaded): exact text prompt lengths (random text of exactly the drawn length, ShareGPT counts).")
    Path tokenizer;

    @Option(names = "--random-vocab-span", defaultValue = "" + PromptTokenIds.DEFAULT_SPAN,
            description = "Token ids span for random prompts (default: fitted to the vocabulary the server states,"
                    + " else ${DEFAULT-VALUE}).")
    int vocabSpan;

    @Option(names = "--random-token-id-base", defaultValue = "" + PromptTokenIds.DEFAULT_BASE,
            description = "Lowest token id for random prompts (default: fitted as above, else ${DEFAULT-VALUE}).")
    int tokenIdBase;

    @Option(names = "--num-prompts", defaultValue = "1000", description = "Requests per load point (default ${DEFAULT-VALUE}).")
    int numPrompts;

    @Option(names = "--max-concurrency", split = ",",
            description = "Cap on requests in flight; a comma list is a sweep, one load point each (default: no cap).")
    List<Integer> maxConcurrency = new ArrayList<>();

    @Option(names = "--request-rate", split = ",", defaultValue = "inf",
            description = "Requests per second, 'inf' = all at once; a comma list is a sweep (default: ${DEFAULT-VALUE}).")
    List<String> requestRate = new ArrayList<>();

    @Option(names = "--burstiness", defaultValue = "1.0",
            description = "Gamma shape of arrivals: 1 = Poisson, <1 burstier, >1 more regular (default ${DEFAULT-VALUE}).")
    double burstiness;

    @Option(names = "--seed", defaultValue = "42", description = "Seed for dataset and arrivals (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--warmup-requests", defaultValue = "1",
            description = "Unmeasured requests before each load point (default ${DEFAULT-VALUE}).")
    int warmupRequests;

    @Option(names = "--disable-ignore-eos", description = "Do not send ignore_eos.")
    boolean disableIgnoreEos;

    @Option(names = "--extra-request-body", description = "JSON object merged into every request body.")
    String extraRequestBody;

    @Option(names = "--token-source", defaultValue = "usage",
            description = "Output tokens from server 'usage' (falls back to chunk count per request) or 'chunks'.")
    String tokenSource;

    @Option(names = "--input-token-source", defaultValue = "dataset",
            description = "Input tokens of total_input_tokens, input_throughput and total_throughput: the dataset's"
                    + " prompt_len, as SGLang counts them ('dataset', default; estimated for text prompts) or the"
                    + " server's usage.prompt_tokens ('usage', dataset count per request without usage). The server's"
                    + " count is always reported as server_input_tokens.")
    String inputTokenSource;

    @Option(names = "--goodput", split = " ", description = "vLLM goodput SLOs in ms, e.g. --goodput ttft:300 tpot:50 e2el:2000.")
    List<String> goodput = new ArrayList<>();

    @Option(names = "--stall-timeout", defaultValue = "600",
            description = "Fail a request when no byte arrives for this many seconds (default ${DEFAULT-VALUE}).")
    Double stallTimeoutSeconds;

    @Option(names = "--request-timeout",
            description = "Fail a request that takes longer than this many seconds in all (default: no limit).")
    Double requestTimeoutSeconds;

    @Option(names = "--max-duration",
            description = "Cut a load point after this many seconds: nothing more is sent, requests in flight are "
                    + "cancelled, and the summary says so (default: no limit).")
    Double maxDurationSeconds;

    @Option(names = "--min-success-rate", defaultValue = "0.99",
            description = "A load point with a smaller share of successful requests is INVALID: marked so in the "
                    + "console and summary, exit code 3 (default ${DEFAULT-VALUE}).")
    double minSuccessRate;

    @Option(names = "--client-threads",
            description = "Client event-loop threads (default: cores, at most 4).")
    int clientThreads = Math.min(4, Runtime.getRuntime().availableProcessors());

    @Option(names = "--embedded-weights", defaultValue = "f16",
            description = "Without --base-url: weights of the embedded model, f16 or q4_0 (default ${DEFAULT-VALUE}).")
    String embeddedWeights;

    @Option(names = "--embedded-slots",
            description = "Without --base-url: engine slots (default: the largest --max-concurrency, else 16).")
    Integer embeddedSlots;

    @Option(names = "--output-dir", description = "Directory for summaries and records (default: reports/runs/<time>).")
    Path outputDir;

    @Option(names = "--tag", description = "Free-form label stored in every summary.")
    String tag;

    @Option(names = "--no-progress", description = "Do not draw the progress bar.")
    boolean noProgress;

    @Option(names = "--print-spec", description = "Print the performance spec these flags describe (YAML, for"
            + " servebench check and the perf suite) and exit without measuring.")
    boolean printSpec;

    @Override
    public Integer call() throws Exception {
        RunSettings settings = settings();
        if (printSpec) {
            spec.commandLine().getOut().print(SpecWriter.write(settings.spec()));
            spec.commandLine().getOut().flush();
            return 0;
        }
        return new BenchmarkRun(settings, spec.commandLine().getOut(), spec.commandLine().getErr()).execute();
    }

    /** The spec the flags describe, and what only the command line has. */
    RunSettings settings() {
        boolean embedded = baseUrl == null;
        if (embedded && !matched("--random-input-len")) {
            randomInputLen = EMBEDDED_INPUT_LEN;
        }
        if (embedded && !matched("--random-output-len")) {
            randomOutputLen = EMBEDDED_OUTPUT_LEN;
        }
        Optional<String> key = Optional.ofNullable(apiKey).or(() -> Optional.ofNullable(System.getenv("OPENAI_API_KEY")))
                .filter(k -> !k.isBlank());
        PerformanceSpec measured = measuredSpec(embedded, SpecSource.of(Path.of(COMMAND_LINE), new byte[0]));
        // The spec's source is the YAML it is equivalent to: its hash then names the measurement, as a file's does.
        PerformanceSpec described = measuredSpec(embedded, SpecSource.of(Path.of(COMMAND_LINE),
                SpecWriter.write(measured).getBytes(StandardCharsets.UTF_8)));
        return new RunSettings(described, key, Optional.ofNullable(outputDir), Optional.ofNullable(tag), !noProgress);
    }

    /** What a spec built from flags names as its file. */
    static final String COMMAND_LINE = "servebench-run-flags";

    private PerformanceSpec measuredSpec(boolean embedded, SpecSource source) {
        Backend parsedBackend = parse("--backend", () -> Backend.fromCliName(backend));
        Optional<String> modelName = Optional.ofNullable(model);
        TargetSpec target = embedded
                ? parse("--embedded-weights/--embedded-slots", () -> new EmbeddedTargetSpec(
                        EmbeddedTarget.weights(embeddedWeights),
                        Optional.ofNullable(embeddedSlots).orElseGet(() -> maxConcurrency.stream().max(Integer::compare)
                                .orElse(EmbeddedTargetSpec.DEFAULT_SLOTS)),
                        EmbeddedTargetSpec.DEFAULT_THREADS, parsedBackend, modelName))
                : parse("--base-url", () -> new UrlTargetSpec(URI.create(baseUrl), parsedBackend, modelName));
        PromptFormat format = parse("--prompt-format", () -> promptFormat(parsedBackend));
        DatasetSpec dataset = parse("--dataset-name", this::dataset);
        if (numPrompts < 1) {
            throw new ParameterException(spec.commandLine(), "--num-prompts (" + numPrompts + ") must be >= 1");
        }
        WorkloadSpec workload = new WorkloadSpec(dataset, new PromptCount.Fixed(numPrompts), seed, format,
                !disableIgnoreEos, Optional.ofNullable(tokenizer).map(p -> p.toAbsolutePath().normalize()),
                extraRequestBody == null ? JsonNodeFactory.instance.objectNode()
                        : parse("--extra-request-body", () -> RequestBodies.parseExtraBody(extraRequestBody)));
        List<Double> rates = new ArrayList<>();
        for (String rate : requestRate) {
            rates.add(parse("--request-rate", () -> parseRate(rate)));
        }
        SweepSpec sweep = parse("--max-concurrency/--request-rate/--burstiness/--max-duration", () -> new SweepSpec(
                maxConcurrency, rates, burstiness, seconds("--max-duration", maxDurationSeconds)));
        if (warmupRequests < 0) {
            throw new ParameterException(spec.commandLine(), "--warmup-requests (" + warmupRequests + ") must be >= 0");
        }
        ValiditySpec defaults = ValiditySpec.DEFAULTS;
        ValiditySpec validity = parse("--min-success-rate", () -> new ValiditySpec(minSuccessRate,
                defaults.minAchievedConcurrency(), defaults.maxDispatchLagP99Ms(), defaults.maxUsageChunkMismatch()));
        TokenSource outputSource = parse("--token-source", () -> TokenSourceOption.parse(tokenSource));
        InputTokenSource inputSource = parse("--input-token-source",
                () -> TokenSourceOption.parseInput(inputTokenSource));
        Optional<GoodputSlo> slo = goodput.isEmpty() ? Optional.empty()
                : Optional.of(parse("--goodput", () -> GoodputOption.parse(goodput)));
        ClientSpec client = parse("--client-threads/--stall-timeout/--request-timeout", () -> new ClientSpec(
                matched("--client-threads") ? OptionalInt.of(clientThreads) : OptionalInt.empty(),
                seconds("--stall-timeout", stallTimeoutSeconds).orElseThrow(),
                seconds("--request-timeout", requestTimeoutSeconds)));
        return parse("options", () -> new PerformanceSpec("run", "servebench run's flags", target, workload, sweep,
                warmupRequests, 1, RepeatOrder.SEQUENTIAL, validity, new MetricsSpec(outputSource, inputSource, slo),
                client, List.of(), List.of(), Optional.empty(), source));
    }

    private PromptFormat promptFormat(Backend parsedBackend) {
        PromptFormat format = Arrays.stream(PromptFormat.values()).filter(f -> f.label().equals(promptFormat))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("must be auto, ids or text, got '"
                        + promptFormat + "'"));
        if (format == PromptFormat.IDS && !parsedBackend.endpoint().acceptsTokenIds()) {
            throw new IllegalArgumentException("ids: backend " + parsedBackend + " (" + parsedBackend.endpoint().path()
                    + ") accepts text prompts only");
        }
        if (format == PromptFormat.IDS && !datasetName.equals("random")) {
            throw new IllegalArgumentException("ids: only random prompts can be sent as token ids");
        }
        return format;
    }

    private DatasetSpec dataset() {
        return switch (datasetName) {
            case "random" -> new RandomDatasetSpec(randomInputLen, randomOutputLen, randomRangeRatio,
                    matched("--random-vocab-span") || matched("--random-token-id-base")
                            ? Optional.of(new PromptTokenIds(tokenIdBase, vocabSpan)) : Optional.empty());
            case "sharegpt" -> {
                if (datasetPath == null) {
                    throw new IllegalArgumentException("sharegpt needs --dataset-path FILE");
                }
                yield new ShareGptDatasetSpec(datasetPath.toAbsolutePath().normalize(),
                        sharegptOutputLen == null ? OptionalInt.empty() : OptionalInt.of(sharegptOutputLen));
            }
            default -> throw new IllegalArgumentException("must be 'random' or 'sharegpt', got '" + datasetName + "'");
        };
    }

    /** Lengths of the embedded default run: the embedded engine's benchmark shape (128 in, 64 out). */
    static final int EMBEDDED_INPUT_LEN = 128;
    static final int EMBEDDED_OUTPUT_LEN = 64;

    private boolean matched(String option) {
        return spec.commandLine().getParseResult() != null
                && spec.commandLine().getParseResult().hasMatchedOption(option);
    }

    private static Optional<Duration> seconds(String flag, Double value) {
        if (value == null) {
            return Optional.empty();
        }
        if (!(value > 0) || value.isInfinite()) {
            throw new IllegalArgumentException(flag + " (" + value + " s) must be a finite number > 0");
        }
        return Optional.of(Duration.ofNanos((long) (value * 1e9)));
    }

    private static double parseRate(String text) {
        String t = text.trim();
        if (t.equalsIgnoreCase("inf")) {
            return Double.POSITIVE_INFINITY;
        }
        double rate = Double.parseDouble(t);
        if (!(rate > 0)) {
            throw new IllegalArgumentException("request rate (" + text + ") must be > 0 or 'inf'");
        }
        return rate;
    }

    private <T> T parse(String what, java.util.function.Supplier<T> parser) {
        try {
            return parser.get();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), what + ": " + e.getMessage());
        }
    }
}
