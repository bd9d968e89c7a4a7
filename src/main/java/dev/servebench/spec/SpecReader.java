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

/**
 * Reads performance specs (docs/specs.md). Pure apart from reading the file: nothing is resolved against
 * the network or the file system beyond joining relative paths to the spec's directory. Every problem is a
 * {@link SpecException} whose message starts with {@code file:line:column:}.
 */
public final class SpecReader {

    static final List<String> KEYS = List.of("name", "description", "target", "workload", "sweep", "warmup",
            "repeats", "repeat_order", "validity", "expect");
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
        YamlNode root = YamlTree.parse(text, file);
        if (root == null) {
            throw new SpecException(new SourcePosition(file, 1, 1), "the spec is empty; expected a mapping with keys "
                    + String.join(", ", KEYS));
        }
        Path directory = file.getParent();
        Fields fields = Fields.of(root, "the spec", KEYS);
        YamlNode nameNode = fields.required("name");
        String name = Values.string(nameNode);
        if (!name.matches(PerformanceSpec.NAME_PATTERN)) {
            throw Values.expected(nameNode, "a name of letters, digits, '.', '_' and '-' (it names files and tests)");
        }
        String description = fields.optionalString("description").orElse("");
        SweepSpec sweep = SweepReader.read(fields.required("sweep"));
        TargetSpec target = TargetReader.read(fields.optional("target"), root.position(), sweep, directory);
        WorkloadSpec workload = WorkloadReader.read(fields.required("workload"), sweep, target.backend(), directory);
        int warmup = fields.integer("warmup", 0, Integer.MAX_VALUE, PerformanceSpec.DEFAULT_WARMUP);
        int repeats = fields.integer("repeats", 1, Integer.MAX_VALUE, PerformanceSpec.DEFAULT_REPEATS);
        RepeatOrder repeatOrder = fields.optional("repeat_order").map(SpecReader::repeatOrder)
                .orElse(RepeatOrder.SEQUENTIAL);
        ValiditySpec validity = fields.optional("validity").map(SpecReader::validity).orElse(ValiditySpec.DEFAULTS);
        List<Expectation> expectations = fields.optional("expect")
                .map(n -> expectations(n, sweep, text)).orElse(List.of());
        return new PerformanceSpec(name, description, target, workload, sweep, warmup, repeats, repeatOrder, validity,
                expectations, SpecSource.of(file, bytes));
    }

    private static RepeatOrder repeatOrder(YamlNode node) {
        try {
            return RepeatOrder.parse(Values.string(node));
        } catch (IllegalArgumentException e) {
            throw Values.expected(node, "sequential or interleaved");
        }
    }

    private static ValiditySpec validity(YamlNode node) {
        Fields fields = Fields.of(node, "validity", VALIDITY_KEYS);
        ValiditySpec defaults = ValiditySpec.DEFAULTS;
        return new ValiditySpec(
                fields.number("min_completed", 0, 1, defaults.minCompleted()),
                fields.number("min_achieved_concurrency", 0, 1, defaults.minAchievedConcurrency()),
                fields.number("max_dispatch_lag_p99_ms", 0, Double.MAX_VALUE, defaults.maxDispatchLagP99Ms()),
                fields.number("max_usage_chunk_mismatch", 0, 1, defaults.maxUsageChunkMismatch()));
    }

    private static List<Expectation> expectations(YamlNode node, SweepSpec sweep, String text) {
        if (!(node instanceof YamlNode.Sequence sequence)) {
            throw Values.expected(node, "a list of expectations, one per line starting with '- '");
        }
        List<String> lines = text.lines().toList();
        List<Expectation> expectations = new ArrayList<>();
        Map<String, YamlNode> seen = new HashMap<>();
        for (YamlNode item : sequence.items()) {
            if (!(item instanceof Scalar scalar) || scalar.type() != ScalarType.STRING || scalar.text().isBlank()) {
                throw Values.expected(item, "an expectation such as 'output_throughput >= 600 tok/s @ concurrency=256'");
            }
            Expectation expectation = expectation(scalar, lines, sweep);
            YamlNode earlier = seen.putIfAbsent(expectation.displayName(), item);
            if (earlier != null) {
                throw Values.error(item, "duplicate expectation '" + expectation.displayName() + "' (already at "
                        + earlier.path() + ", line " + earlier.position().line() + ")");
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
    private static Expectation expectation(Scalar scalar, List<String> lines, SweepSpec sweep) {
        SourcePosition position = scalar.position();
        String text = scalar.text();
        String line = position.line() <= lines.size() ? lines.get(position.line() - 1) : "";
        int column = position.column() - 1;
        int index = column <= line.codePointCount(0, line.length()) ? line.offsetByCodePoints(0, column) : -1;
        if (index >= 0 && line.startsWith(text, index)) {
            return ExpectationParser.parse(text, position, true, scalar.path(), sweep);
        }
        boolean quoted = index >= 0 && index < line.length() && (line.charAt(index) == '"' || line.charAt(index) == '\'');
        if (quoted && line.startsWith(text, index + 1)) {
            return ExpectationParser.parse(text, position.shiftedRight(1), true, scalar.path(), sweep);
        }
        return ExpectationParser.parse(text, position, false, scalar.path(), sweep);
    }
}
