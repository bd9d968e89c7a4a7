package dev.servebench.metric;

import static org.assertj.core.api.Assertions.assertThat;

import dev.servebench.record.RecordStore;
import dev.servebench.record.RequestRecord;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The streamed pairwise statistics against NumpyStats' array versions, bit for bit. */
class SeriesStatsTest {

    @TempDir
    Path spill;

    @Test
    void streamedSumsEqualNumpyStatsAtEveryShapeOfTheRecursion() {
        Random r = new Random(1);
        for (int n = 0; n < 1200; n += n < 300 ? 1 : 37) {
            double[] values = r.doubles(n).map(x -> x < 0.3 ? x * 1e9 : x < 0.6 ? -x : x * 1e-9).toArray();
            DoubleSeries series = DoubleSeries.of(values);
            assertThat(SeriesStats.sum(series)).as("sum of %d", n).isEqualTo(NumpyStats.sum(values));
            assertThat(SeriesStats.mean(series)).isEqualTo(NumpyStats.mean(values));
            assertThat(SeriesStats.std(series, NumpyStats.mean(values))).isEqualTo(NumpyStats.std(values));
            assertThat(SeriesStats.max(series)).isEqualTo(NumpyStats.max(values));
        }
        assertThat(Double.doubleToRawLongBits(SeriesStats.sum(DoubleSeries.of(new double[] {-0.0, -0.0}))))
                .isEqualTo(Double.doubleToRawLongBits(NumpyStats.sum(new double[] {-0.0, -0.0})));
    }

    @Test
    void itlListsReadBackFromASpillFileSumAsTheConcatenatedArrays() {
        MessyLoad load = MessyLoad.generate(3);
        List<RequestRecord> successes = load.records().stream().filter(RequestRecord::succeeded)
                .sorted(Comparator.comparingInt(RequestRecord::index)).toList();
        double[] sglang = successes.stream().flatMapToDouble(x -> Arrays.stream(x.sglangItlSeconds())).toArray();
        assertThat(sglang.length).isGreaterThan(10_000);
        try (RecordStore store = RecordStore.of(successes, 0, spill, 64)) {
            assertThat(store.spilledBytes()).isPositive();
            int[] slots = IntStream.range(0, successes.size()).toArray();
            Population population = new Population(store, slots, Population.Tool.SGLANG, TokenSource.CHUNK_COUNT,
                    RankSelect.Limits.DEFAULT);
            assertThat(population.itl().size()).isEqualTo(sglang.length);
            assertThat(population.itl().sum()).isEqualTo(NumpyStats.sum(sglang));
            assertThat(population.itl().std()).isEqualTo(NumpyStats.std(sglang));
            assertThat(population.itl().percentile(99)).isEqualTo(NumpyStats.percentile(sglang, 99));
        }
    }
}
