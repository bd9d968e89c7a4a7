package dev.servebench.spec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.Unit;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The small value types: load point names, units, hashes, suggestions. */
class SpecModelTest {

    @Test
    void loadPointNamesLeaveOutDefaultCoordinates() {
        assertThat(LoadPointKey.concurrency(256)).hasToString("concurrency=256");
        assertThat(new LoadPointKey(64, 8)).hasToString("concurrency=64,rate=8");
        assertThat(new LoadPointKey(0, 0.5)).hasToString("rate=0.5");
        assertThat(new LoadPointKey(0, Double.POSITIVE_INFINITY)).hasToString("rate=inf");
        assertThat(new LoadPointKey(64, 8).toLoadPoint(1.0).label()).isEqualTo("rate-8-concurrency-64");
        assertThatIllegalArgumentException().isThrownBy(() -> new LoadPointKey(-1, 1));
        assertThatIllegalArgumentException().isThrownBy(() -> new LoadPointKey(1, 0));
    }

    @Test
    void everyUnitIsWrittenFirstByItsOwnSymbolAndNoTextMeansTwoUnits() {
        for (Unit unit : Unit.values()) {
            assertThat(SpecUnits.accepted(unit).getFirst()).isEqualTo(unit.symbol());
            for (String text : SpecUnits.accepted(unit)) {
                assertThat(SpecUnits.parse(text)).contains(unit);
            }
        }
        assertThat(SpecUnits.parse("tps")).isEmpty();
    }

    @Test
    void everyMetricIdIsAcceptedAsWrittenAndNothingElse() {
        for (MetricId metric : MetricId.values()) {
            assertThat(MetricNames.find(metric.id())).contains(metric);
        }
        assertThat(MetricNames.find("OUTPUT_THROUGHPUT")).isEmpty();
        assertThat(MetricNames.find("duration")).isEmpty();
        assertThat(MetricNames.suggestions("duration")).startsWith("benchmark_duration");
    }

    @Test
    void suggestionsPreferReorderedWordsThenSmallEdits() {
        List<String> ids = Arrays.stream(MetricId.values()).map(MetricId::id).toList();
        assertThat(Similarity.closest("itl_p99_ms", ids, 3)).startsWith("p99_itl_ms");
        assertThat(Similarity.closest("output_througput", ids, 3)).startsWith("output_throughput");
        assertThat(Similarity.closest("zzz", ids, 3)).isEmpty();
        assertThat(Similarity.editDistance("kitten", "sitting")).isEqualTo(3);
        assertThat(Similarity.didYouMean(List.of())).isEmpty();
    }

    @Test
    void hashIsTheSha256OfTheExactBytes() {
        // Expected values from `printf '...' | sha256sum`.
        String lf = "name: hashed\nworkload: {dataset: random, input_len: 8, output_len: 8}\nsweep: {concurrency: [1]}\n";
        PerformanceSpec spec = SpecReader.parse(lf, "a.yaml");
        assertThat(spec.source().sha256()).isEqualTo("8ee6f4b6b68a5590098b7645fb55d5af6beeb2ccd2e6b312035c2e5e24822e0f");
        assertThat(SpecReader.parse(lf, "elsewhere/b.yaml").source().sha256()).isEqualTo(spec.source().sha256());

        PerformanceSpec crlf = SpecReader.parse(lf.replace("\n", "\r\n"), "a.yaml");
        assertThat(crlf.source().sha256()).isEqualTo("acc424be0ed2a3d072c9733169c0b97329c03798d077b29ab04ad8f29c64b92d");
        assertThat(crlf.workload()).isEqualTo(spec.workload());
        assertThat(SpecReader.parse(lf + "# a comment\n", "a.yaml").source().sha256()).isNotEqualTo(spec.source().sha256());
        assertThat(SpecReader.parse(lf, "a.yaml").source()).isEqualTo(new SpecSource(Path.of("a.yaml"),
                "8ee6f4b6b68a5590098b7645fb55d5af6beeb2ccd2e6b312035c2e5e24822e0f"));
    }

    @Test
    void readingAFileHashesItsBytes(@org.junit.jupiter.api.io.TempDir Path directory) throws Exception {
        Path file = directory.resolve("hashed.yaml");
        java.nio.file.Files.writeString(file,
                "name: hashed\nworkload: {dataset: random, input_len: 8, output_len: 8}\nsweep: {concurrency: [1]}\n");
        assertThat(SpecReader.read(file).source()).isEqualTo(new SpecSource(file,
                "8ee6f4b6b68a5590098b7645fb55d5af6beeb2ccd2e6b312035c2e5e24822e0f"));
    }

    @Test
    void validityDefaultsAreFractionsAndAMillisecondBound() {
        assertThat(ValiditySpec.DEFAULTS).isEqualTo(new ValiditySpec(0.99, 0.8, 50, 0.01));
        assertThatIllegalArgumentException().isThrownBy(() -> new ValiditySpec(1.01, 0.8, 50, 0.01));
        assertThatIllegalArgumentException().isThrownBy(() -> new ValiditySpec(0.99, 0.8, -1, 0.01));
    }

    @Test
    void scaledPromptCountsNeedCappedPoints() {
        PromptCount.Scaled scaled = new PromptCount.Scaled(4, 32, 4096);
        assertThat(scaled.at(LoadPointKey.concurrency(1))).isEqualTo(32);
        assertThat(scaled.at(LoadPointKey.concurrency(100))).isEqualTo(400);
        assertThat(scaled.at(LoadPointKey.concurrency(100_000))).isEqualTo(4096);
        assertThatIllegalArgumentException().isThrownBy(() -> scaled.at(new LoadPointKey(0, 8)));
        assertThatIllegalArgumentException().isThrownBy(() -> new PromptCount.Scaled(4, 64, 32));
    }
}
