package dev.servebench.metric;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * docs/metrics.md, generated: the hand-written prose of {@link #TEMPLATE} with its {@code {{placeholders}}}
 * replaced by tables rendered from {@link MetricId} and the token source enums. {@link MetricsDocTest} fails
 * while the committed page differs, and writes it with {@link #REGENERATE}.
 */
final class MetricsDoc {

    static final Path DOC = Path.of("docs", "metrics.md");
    static final String TEMPLATE = "src/test/resources/dev/servebench/metric/metrics-doc-template.md";
    static final String REGENERATE = "./mvnw -B -q test -Dtest=MetricsDocTest -Dservebench.writeMetricsDoc=true";

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z-]+)(?::([A-Z]+))?}}");

    private MetricsDoc() {
    }

    static String render() throws IOException {
        String template;
        try (InputStream in = MetricsDoc.class.getResourceAsStream("metrics-doc-template.md")) {
            if (in == null) {
                throw new IllegalStateException("no " + TEMPLATE + " on the test class path");
            }
            template = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(expand(m.group(1), m.group(2), template, m.start())));
        }
        return m.appendTail(out).toString();
    }

    private static String expand(String name, String argument, String template, int at) {
        return switch (name) {
            case "generated-note" -> "<!-- Generated from " + TEMPLATE + " and dev.servebench.metric.MetricId;"
                    + " edit those, then run: " + REGENERATE + " -->";
            case "regenerate" -> REGENERATE;
            case "token-sources" -> table(List.of("token source", "meaning"), Arrays.stream(TokenSource.values())
                    .map(s -> List.of(s.name(), s.description())));
            case "token-bases" -> table(List.of("token basis", "meaning"), Arrays.stream(TokenBasis.values())
                    .map(b -> List.of(b.name(), b.description())));
            case "input-token-sources" -> table(List.of("input token source", "meaning"),
                    Arrays.stream(InputTokenSource.values()).map(s -> List.of(s.name(), s.description())));
            case "input-metrics-by-source" -> table(List.of("input token source", "id", "token basis", "input count",
                    "formula"), Arrays.stream(InputTokenSource.values()).flatMap(source -> inputMetrics()
                    .map(id -> inputRow(source, id))));
            case "metrics" -> table(List.of("id", "origin", "SGLang key", "vLLM key", "console label", "unit",
                    "direction", "token source", "formula"), Arrays.stream(MetricId.values())
                    .filter(id -> id.origin().name().equals(argument)).map(MetricsDoc::row));
            case "views" -> views();
            default -> throw new IllegalStateException(TEMPLATE + " line " + (template.substring(0, at).lines().count()
                    + 1) + ": unknown placeholder {{" + name + "}}; known: generated-note, regenerate, token-sources,"
                    + " token-bases, input-token-sources, input-metrics-by-source, metrics:ORIGIN, views");
        };
    }

    /** The metrics whose input count depends on the run's input token source, or that count input at all. */
    static Stream<MetricId> inputMetrics() {
        return Arrays.stream(MetricId.values()).filter(MetricId::countsInputTokens);
    }

    static List<String> inputRow(InputTokenSource source, MetricId id) {
        TokenBasis basis = id.tokenBasis(source);
        return List.of(source.name(), "`" + id.id() + "`", basis.name(), basis.inputCount().description(),
                id.formula(source));
    }

    static List<String> row(MetricId id) {
        return List.of("`" + id.id() + "`", id.origin().name(), id.sglangKey().map(k -> "`" + k + "`").orElse("-"),
                id.vllmKey().map(k -> "`" + k + "`").orElse("-"), id.sglangLabel().or(id::vllmLabel).orElse("-"),
                id.unit().symbol(), id.direction().name(), id.tokenBasis().name(), id.formula());
    }

    private static String views() {
        Function<List<MetricId>, String> ids = list -> list.isEmpty() ? "none"
                : list.stream().map(id -> "`" + id.id() + "`").collect(Collectors.joining(", "));
        StringBuilder out = new StringBuilder("| where | declared by | metrics, in order |\n|---|---|---|\n");
        out.append("| per-point console, SGLang's block | an SGLang console label | ").append(ids.apply(
                Arrays.stream(MetricId.values()).filter(id -> id.sglangLabel().isPresent()).toList())).append(" |\n");
        out.append("| per-point console, vLLM and servebench blocks | `.console(label)` | ").append(
                Arrays.stream(MetricId.values()).filter(id -> id.sglangLabel().isEmpty() && id.consoleLabel().isPresent())
                        .map(id -> "`" + id.id() + "` (" + id.consoleLabel().get() + ")")
                        .collect(Collectors.joining(", "))).append(" |\n");
        for (View view : View.values()) {
            out.append("| ").append(view.title()).append(" | `.shown(").append(view.name()).append(")` | ")
                    .append(ids.apply(MetricId.inView(view))).append(" |\n");
        }
        out.append("| regression gate: judged (the others are compared and reported) | `.gated()` | ")
                .append(ids.apply(Arrays.stream(MetricId.values()).filter(MetricId::gated).toList())).append(" |");
        return out.toString();
    }

    private static String table(List<String> header, Stream<List<String>> rows) {
        return Stream.concat(Stream.of(cells(header), "|" + "---|".repeat(header.size())), rows.map(MetricsDoc::cells))
                .collect(Collectors.joining("\n"));
    }

    private static String cells(List<String> cells) {
        return cells.stream().collect(Collectors.joining(" | ", "| ", " |"));
    }
}
