package dev.servebench.spec;

import dev.servebench.spec.YamlNode.Scalar;
import dev.servebench.spec.YamlNode.ScalarType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Reads performance specs (docs/specs.md). Pure apart from reading the file: nothing is resolved against
 * the network or the file system beyond joining relative paths to the spec's directory. A spec's problems
 * are collected and thrown together as one {@link SpecException}, each as {@code file:line:column: problem}.
 */
public final class SpecReader {

    static final List<String> KEYS = List.of("name", "description", "target", "workload", "sweep", "warmup",
            "repeats", "repeat_order", "validity", "metrics", "client", "expect", "kernels", "model", "hardware");
    static final List<String> VALIDITY_KEYS = List.of("min_completed", "min_achieved_concurrency",
            "max_dispatch_lag_p99_ms", "max_usage_chunk_mismatch");

    private SpecReader() {
    }

    /**
     * Reads and parses {@code file} (UTF-8). Relative paths inside it are resolved against its directory.
     *
     * @throws IOException   the file cannot be read
     * @throws SpecException the content is not a valid spec
     */
    public static PerformanceSpec read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new SpecException(new SourcePosition(file, 1, 1), "not UTF-8 text: " + e.getMessage());
        }
        return parse(text, bytes, file);
    }

    /**
     * Parses spec text; {@code fileName} names it in positions and messages, and its directory (if it has
     * one) is where relative paths are resolved. The hash is over the text's UTF-8 bytes.
     */
    public static PerformanceSpec parse(String text, String fileName) {
        return parse(text, text.getBytes(StandardCharsets.UTF_8), Path.of(fileName));
    }

    private static PerformanceSpec parse(String text, byte[] bytes, Path file) {
        // Broken YAML (or no mapping at all) leaves nothing to check further: one error, as before.
        YamlNode root = YamlTree.parse(text, file);
        if (root == null) {
            throw new SpecException(new SourcePosition(file, 1, 1), "the spec is empty; expected a mapping with keys "
                    + String.join(", ", KEYS));
        }
        Path directory = file.getParent();
        SpecErrors errors = new SpecErrors();
        Fields fields = Fields.of(root, "the spec", KEYS, errors);
        // Each key is read on its own so that one mistake does not hide the next. A section that failed is
        // empty; the sections that depend on it skip only the checks that need it (points of the sweep,
        // the target's backend) and still check everything else.
        Optional<String> name = errors.read(() -> name(fields.required("name")));
        Optional<String> description = errors.read(() -> fields.optionalString("description").orElse(""));
        Optional<SweepSpec> sweep = errors.read(() -> fields.required("sweep"))
                .flatMap(n -> errors.section(() -> SweepReader.read(n, errors)));
        Optional<TargetSpec> target = errors.read(() -> TargetReader.read(fields.optional("target"), root.position(),
                sweep, directory, errors));
        Optional<WorkloadSpec> workload = errors.read(() -> fields.required("workload")).flatMap(n -> errors.section(
                () -> WorkloadReader.read(n, sweep, target.map(TargetSpec::backend), directory, errors)));
        Optional<Integer> warmup = errors.read(() -> fields.integer("warmup", 0, Integer.MAX_VALUE,
                PerformanceSpec.DEFAULT_WARMUP));
        Optional<Integer> repeats = errors.read(() -> fields.integer("repeats", 1, Integer.MAX_VALUE,
                PerformanceSpec.DEFAULT_REPEATS));
        Optional<RepeatOrder> repeatOrder = errors.read(() -> fields.optional("repeat_order")
                .map(SpecReader::repeatOrder).orElse(RepeatOrder.SEQUENTIAL));
        Optional<ValiditySpec> validity = errors.read(() -> fields.optional("validity")
                .map(n -> validity(n, errors)).orElse(ValiditySpec.DEFAULTS));
        Optional<MetricsSpec> metrics = errors.read(() -> fields.optional("metrics")
                .map(n -> MetricsReader.read(n, errors)).orElse(MetricsSpec.DEFAULTS));
        Optional<ClientSpec> client = errors.read(() -> fields.optional("client")
                .map(n -> ClientReader.read(n, errors)).orElse(ClientSpec.DEFAULTS));
        List<Expectation> expectations = errors.read(() -> fields.optional("expect")
                .map(n -> expressions(n, text, errors, "an expectation such as 'output_throughput >= 600 tok/s @"
                        + " concurrency=256'", (expression, start, exact, path) -> ExpectationParser.parse(
                                expression, start, exact, path, sweep), Expectation::displayName))
                .orElse(List.of())).orElse(List.of());
        List<KernelExpectation> kernels = errors.read(() -> fields.optional("kernels")
                .map(n -> expressions(n, text, errors, "a kernel expectation such as 'moe_gflops@backend=native,"
                        + "tokens=64 >= 1 x moe_gflops@backend=ggml-f16'", KernelExpectationParser::parse,
                        KernelExpectation::displayName))
                .orElse(List.of())).orElse(List.of());
        Optional<dev.servebench.roofline.Deployment> deployment = DeploymentReader.read(fields.optional("model"),
                fields.optional("hardware"), errors);
        errors.throwIfAny();
        // No errors: every read above succeeded.
        return new PerformanceSpec(name.orElseThrow(), description.orElseThrow(), target.orElseThrow(),
                workload.orElseThrow(), sweep.orElseThrow(), warmup.orElseThrow(), repeats.orElseThrow(),
                repeatOrder.orElseThrow(), validity.orElseThrow(), metrics.orElseThrow(), client.orElseThrow(),
                expectations, kernels, deployment, SpecSource.of(file, bytes));
    }

    private static String name(YamlNode node) {
        String name = Values.string(node);
        if (!name.matches(PerformanceSpec.NAME_PATTERN)) {
            throw Values.expected(node, "a name of letters, digits, '.', '_' and '-' (it names files and tests)");
        }
        return name;
    }

    private static RepeatOrder repeatOrder(YamlNode node) {
        try {
            return RepeatOrder.parse(Values.string(node));
        } catch (IllegalArgumentException e) {
            throw Values.expected(node, "sequential or interleaved");
        }
    }

    /** Each key on its own; a bad one leaves its default in a spec that will not be used anyway. */
    private static ValiditySpec validity(YamlNode node, SpecErrors errors) {
        Fields fields = Fields.of(node, "validity", VALIDITY_KEYS, errors);
        ValiditySpec defaults = ValiditySpec.DEFAULTS;
        return new ValiditySpec(
                errors.read(() -> fields.number("min_completed", 0, 1, defaults.minCompleted()))
                        .orElse(defaults.minCompleted()),
                errors.read(() -> fields.number("min_achieved_concurrency", 0, 1, defaults.minAchievedConcurrency()))
                        .orElse(defaults.minAchievedConcurrency()),
                errors.read(() -> fields.number("max_dispatch_lag_p99_ms", 0, Double.MAX_VALUE,
                        defaults.maxDispatchLagP99Ms())).orElse(defaults.maxDispatchLagP99Ms()),
                errors.read(() -> fields.number("max_usage_chunk_mismatch", 0, 1, defaults.maxUsageChunkMismatch()))
                        .orElse(defaults.maxUsageChunkMismatch()));
    }

    /** How one list item's text becomes an expectation; {@code exact}: see {@link #expression}. */
    @FunctionalInterface
    private interface ExpressionParser<T> {
        T parse(String expression, SourcePosition start, boolean exact, String path);
    }

    /** Every item is checked, each on its own; duplicates are looked for among the valid ones. */
    private static <T> List<T> expressions(YamlNode node, String text, SpecErrors errors, String example,
            ExpressionParser<T> parser, Function<T, String> displayName) {
        if (!(node instanceof YamlNode.Sequence sequence)) {
            throw Values.expected(node, "a list of expectations, one per line starting with '- '");
        }
        List<String> lines = text.lines().toList();
        List<T> expectations = new ArrayList<>();
        Map<String, YamlNode> seen = new HashMap<>();
        for (YamlNode item : sequence.items()) {
            Optional<T> read = errors.read(() -> {
                if (!(item instanceof Scalar scalar) || scalar.type() != ScalarType.STRING || scalar.text().isBlank()) {
                    throw Values.expected(item, example);
                }
                return expression(scalar, lines, parser);
            });
            if (read.isEmpty()) {
                continue;
            }
            T expectation = read.get();
            YamlNode earlier = seen.putIfAbsent(displayName.apply(expectation), item);
            if (earlier != null) {
                errors.add(Values.error(item, "duplicate expectation '" + displayName.apply(expectation)
                        + "' (already at " + earlier.path() + ", line " + earlier.position().line() + ")"));
                continue;
            }
            expectations.add(expectation);
        }
        return expectations;
    }

    /**
     * Where the expression's first character is: the scalar's own position for a plain scalar, one further
     * for a quoted one. Token columns are exact when the text appears verbatim on that line; a folded or
     * escaped scalar does not, and then errors point at the scalar's start.
     */
    private static <T> T expression(Scalar scalar, List<String> lines, ExpressionParser<T> parser) {
        SourcePosition position = scalar.position();
        String text = scalar.text();
        String line = position.line() <= lines.size() ? lines.get(position.line() - 1) : "";
        int column = position.column() - 1;
        int index = column <= line.codePointCount(0, line.length()) ? line.offsetByCodePoints(0, column) : -1;
        if (index >= 0 && line.startsWith(text, index)) {
            return parser.parse(text, position, true, scalar.path());
        }
        boolean quoted = index >= 0 && index < line.length() && (line.charAt(index) == '"' || line.charAt(index) == '\'');
        if (quoted && line.startsWith(text, index + 1)) {
            return parser.parse(text, position.shiftedRight(1), true, scalar.path());
        }
        return parser.parse(text, position, false, scalar.path());
    }
}
