package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/** Keeps docs/metrics.md generated from the code: the committed page must be what {@link MetricsDoc} renders. */
class MetricsDocTest {

    @Test
    @DisabledIfSystemProperty(named = "servebench.writeMetricsDoc", matches = "true")
    void theCommittedPageIsCurrent() throws IOException {
        String expected = MetricsDoc.render();
        String committed = Files.readString(MetricsDoc.DOC);
        assertThat(committed.equals(expected))
                .as("%s is not generated from the current MetricId and %s; regenerate it with:%n  %s%n(first"
                        + " difference at line %d)", MetricsDoc.DOC, MetricsDoc.TEMPLATE, MetricsDoc.REGENERATE,
                        firstDifference(committed, expected))
                .isTrue();
    }

    /** Writes the page: {@code ./mvnw -B -q test -Dtest=MetricsDocTest -Dservebench.writeMetricsDoc=true}. */
    @Test
    @EnabledIfSystemProperty(named = "servebench.writeMetricsDoc", matches = "true")
    void writeThePage() throws IOException {
        Files.writeString(MetricsDoc.DOC, MetricsDoc.render());
    }

    @Test
    void everyMetricHasItsRowAndEveryTokenBasisIsExplained() throws IOException {
        String page = MetricsDoc.render();
        for (MetricId id : MetricId.values()) {
            assertThat(page).contains(String.join(" | ", MetricsDoc.row(id)));
        }
        for (TokenBasis basis : TokenBasis.values()) {
            assertThat(page).contains("| " + basis.name() + " | " + basis.description() + " |");
        }
        for (InputTokenSource source : InputTokenSource.values()) {
            assertThat(page).contains("| " + source.name() + " | " + source.description() + " |");
        }
        assertThat(page).doesNotContain("{{");
    }

    /** Issue 14: the token basis of every input/total metric under each input token source. */
    @Test
    void everyInputMetricStatesItsBasisUnderEachSource() throws IOException {
        String page = MetricsDoc.render();
        List<MetricId> inputs = MetricsDoc.inputMetrics().toList();
        assertThat(inputs).contains(MetricId.TOTAL_INPUT_TOKENS, MetricId.INPUT_THROUGHPUT, MetricId.TOTAL_THROUGHPUT,
                MetricId.SERVER_INPUT_THROUGHPUT, MetricId.SERVER_TOTAL_THROUGHPUT);
        for (InputTokenSource source : InputTokenSource.values()) {
            for (MetricId id : inputs) {
                assertThat(page).contains(String.join(" | ", MetricsDoc.inputRow(source, id)));
            }
        }
        assertThat(page).contains("| SERVER_USAGE | `input_throughput` | USAGE_PROMPT_TOKENS | server usage.prompt_tokens")
                .contains("| DATASET | `input_throughput` | PROMPT_LENGTH | dataset prompt_len");
    }

    @Test
    void everyViewListsWhatItsMetricsDeclare() throws IOException {
        String page = MetricsDoc.render();
        for (View view : View.values()) {
            assertThat(MetricId.inView(view)).as(view.name()).isNotEmpty();
            assertThat(page).contains("| " + view.title() + " | `.shown(" + view.name() + ")` | `"
                    + MetricId.inView(view).getFirst().id() + "`");
        }
        assertThat(Arrays.stream(MetricId.values()).filter(MetricId::gated)).isNotEmpty();
    }

    private static int firstDifference(String a, String b) {
        List<String> x = a.lines().toList();
        List<String> y = b.lines().toList();
        int i = 0;
        while (i < x.size() && i < y.size() && x.get(i).equals(y.get(i))) {
            i++;
        }
        return i + 1;
    }
}
