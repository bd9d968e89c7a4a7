package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Keeps docs/metrics.md true: its table must list every MetricId exactly as the enum defines it. */
class MetricsDocTest {

    private static final Path DOC = Path.of("docs", "metrics.md");

    @Test
    void everyMetricHasItsRow() throws IOException {
        List<String> docRows = Files.readAllLines(DOC).stream().filter(l -> l.startsWith("| `")).toList();
        List<String> expected = Arrays.stream(MetricId.values()).map(MetricsDocTest::row).toList();
        assertThat(docRows)
                .as("rows of %s; regenerate from:%n%s", DOC, String.join("\n", expected))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void everyTokenBasisIsExplained() throws IOException {
        String doc = Files.readString(DOC);
        for (TokenBasis basis : TokenBasis.values()) {
            assertThat(doc).contains("| " + basis.name() + " | " + basis.description() + " |");
        }
        for (TokenSource source : TokenSource.values()) {
            assertThat(doc).contains("| " + source.name() + " | " + source.description() + " |");
        }
        for (InputTokenSource source : InputTokenSource.values()) {
            assertThat(doc).contains("| " + source.name() + " | " + source.description() + " |");
        }
    }

    /** The input/total metrics' token basis and formula under each input token source, one row per pair. */
    @Test
    void everyInputMetricStatesItsBasisUnderEachSource() throws IOException {
        List<String> expected = Arrays.stream(InputTokenSource.values())
                .flatMap(source -> Arrays.stream(MetricId.values()).filter(MetricId::countsInputTokens)
                        .map(id -> inputRow(source, id)))
                .toList();
        List<String> docRows = Files.readAllLines(DOC).stream()
                .filter(l -> Arrays.stream(InputTokenSource.values()).anyMatch(s -> l.startsWith("| " + s.name() + " | `")))
                .toList();
        assertThat(docRows)
                .as("input rows of %s; regenerate from:%n%s", DOC, String.join("\n", expected))
                .containsExactlyElementsOf(expected);
    }

    static String inputRow(InputTokenSource source, MetricId id) {
        return "| " + source.name() + " | `" + id.id() + "` | " + id.tokenBasis(source).name() + " | "
                + id.formula(source) + " |";
    }

    static String row(MetricId id) {
        return Arrays.stream(new String[] {
                        "`" + id.id() + "`",
                        id.origin().name(),
                        id.sglangKey().map(k -> "`" + k + "`").orElse("-"),
                        id.vllmKey().map(k -> "`" + k + "`").orElse("-"),
                        id.sglangLabel().or(id::vllmLabel).orElse("-"),
                        id.unit().symbol(),
                        id.direction().name(),
                        id.tokenBasis().name(),
                        id.formula()})
                .collect(Collectors.joining(" | ", "| ", " |"));
    }
}
