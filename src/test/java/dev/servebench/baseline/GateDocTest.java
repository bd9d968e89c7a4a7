package dev.servebench.baseline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.metric.Direction;
import dev.servebench.metric.MetricId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Keeps the default-tolerance table of docs/gate.md in step with {@link Tolerance#defaultFraction}. */
class GateDocTest {

    private static final Path DOC = Path.of("docs", "gate.md");
    private static final Pattern ID = Pattern.compile("`([a-z0-9_]+\\*?)`");
    private static final Pattern PERCENT = Pattern.compile("\\|\\s*(\\d+) %\\s*\\|\\s*$");

    private record Row(List<String> patterns, double fraction) {

        boolean covers(MetricId metric) {
            return patterns.stream().anyMatch(p -> p.endsWith("*")
                    ? metric.id().startsWith(p.substring(0, p.length() - 1))
                            || metric.id().startsWith("vllm_" + p.substring(0, p.length() - 1))
                    : metric.id().equals(p));
        }
    }

    @Test
    void everyJudgedMetricIsInExactlyOneRowWithItsDefaultTolerance() throws IOException {
        List<Row> rows = toleranceRows(Files.readAllLines(DOC));
        assertThat(rows).hasSizeGreaterThanOrEqualTo(5);
        for (MetricId metric : MetricId.values()) {
            if (metric.direction() == Direction.INFORMATIONAL) {
                assertThat(rows.stream().filter(r -> r.covers(metric))).as(metric.id()).isEmpty();
                continue;
            }
            List<Row> covering = rows.stream().filter(r -> r.covers(metric)).toList();
            assertThat(covering).as("rows naming %s", metric.id()).hasSize(1);
            assertThat(covering.getFirst().fraction()).as(metric.id()).isEqualTo(Tolerance.defaultFraction(metric));
        }
    }

    private static List<Row> toleranceRows(List<String> lines) {
        int header = lines.indexOf("| kind | metrics | tolerance |");
        assertThat(header).as("tolerance table header").isNotNegative();
        List<Row> rows = new ArrayList<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            Matcher percent = PERCENT.matcher(lines.get(i));
            if (!percent.find()) {
                continue; // the informational row
            }
            String metricsCell = lines.get(i).split("\\|")[2];
            List<String> patterns = ID.matcher(metricsCell).results().map(m -> m.group(1)).toList();
            rows.add(new Row(patterns, Integer.parseInt(percent.group(1)) / 100.0));
        }
        return rows;
    }
}
