package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Independent check of the whole calculator: reference/reference_metrics.py runs the aggregation code of
 * SGLang's and vLLM's calculate_metrics (copied logic, numpy 2.4.6) over the per-request values of
 * {@link RandomWorkload}; its results are stored in reference/reference-metrics.txt, and NumpyStats is
 * checked the same way against reference/numpy-stats-cases.txt.
 */
class ReferenceCrossCheckTest {

    private static final long[] SEEDS = {1, 2, 3, 4};

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void summaryMatchesTheReferenceToolsBitForBit(long seed) throws IOException {
        RandomWorkload workload = RandomWorkload.generate(seed);
        ServingSummary summary = SummaryCalculator.compute(workload.records(), workload.durationNanos(),
                workload.options());
        Map<String, Double> expected = new HashMap<>();
        for (String line : resourceLines("reference-metrics.txt")) {
            String[] f = line.split(" ");
            if (Long.parseLong(f[0]) == seed) {
                expected.put(f[1], Double.parseDouble(f[2]));
            }
        }
        assertThat(expected).hasSizeGreaterThan(60);
        expected.forEach((id, value) -> assertThat(summary.value(MetricId.byId(id).orElseThrow()))
                .as("seed %d %s", seed, id).hasValue(value));
    }

    /**
     * A metric SGLang or vLLM writes must be computed by the reference script too; one neither writes (p99.9,
     * servebench's own) need not be, so adding such a metric leaves the reference files alone. The retokenized
     * total is the exception: it re-encodes generated text with a client tokenizer, and the reference records
     * carry neither (RetokenizedMetricsTest and RetokenizedRunTest check it against hand-counted texts).
     */
    @Test
    void everyMetricAReferenceToolWritesIsCrossChecked() throws IOException {
        for (long seed : SEEDS) {
            Set<String> checked = new HashSet<>();
            for (String line : resourceLines("reference-metrics.txt")) {
                String[] f = line.split(" ");
                if (Long.parseLong(f[0]) == seed) {
                    checked.add(f[1]);
                }
            }
            List<String> written = Arrays.stream(MetricId.values())
                    .filter(id -> id.sglangKey().isPresent() || id.vllmKey().isPresent())
                    .filter(id -> id.tokenBasis() != TokenBasis.RETOKENIZED_OUTPUT).map(MetricId::id).toList();
            assertThat(checked).as("seed %d: metrics in reference-metrics.txt; a metric a reference tool writes needs"
                    + " reference_metrics.py to compute it (regenerate as the script says)", seed)
                    .containsAll(written);
        }
    }

    @Test
    void numpyStatisticsMatchNumpyBitForBit() throws IOException {
        int checked = 0;
        for (String line : resourceLines("numpy-stats-cases.txt")) {
            double[] f = Arrays.stream(line.split(" ")).mapToDouble(Double::parseDouble).toArray();
            int n = (int) f[0];
            double p = f[1];
            double[] x = Arrays.copyOfRange(f, 2, 2 + n);
            double[] want = Arrays.copyOfRange(f, 2 + n, f.length);
            double[] got = {NumpyStats.sum(x), NumpyStats.mean(x), NumpyStats.std(x), NumpyStats.median(x),
                    NumpyStats.percentile(x, 90), NumpyStats.percentile(x, 99), NumpyStats.percentile(x, p),
                    NumpyStats.max(x)};
            assertThat(got).as("case with n = %d, p = %s", n, p).containsExactly(want);
            checked++;
        }
        assertThat(checked).isGreaterThanOrEqualTo(40);
    }

    /** Writes the script's input: {@code ./mvnw test -Dtest=ReferenceCrossCheckTest -Dservebench.writeReference=true}. */
    @Test
    @EnabledIfSystemProperty(named = "servebench.writeReference", matches = "true")
    void writeReferenceInput() throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "reference-input"));
        for (long seed : SEEDS) {
            Files.writeString(dir.resolve(seed + ".txt"), RandomWorkload.generate(seed).referenceInput());
        }
    }

    private static List<String> resourceLines(String name) throws IOException {
        try (InputStream in = ReferenceCrossCheckTest.class.getResourceAsStream("reference/" + name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
        }
    }
}
