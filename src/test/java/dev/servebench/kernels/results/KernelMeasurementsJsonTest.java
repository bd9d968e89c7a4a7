package dev.servebench.kernels.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.metric.KernelMetric;
import dev.servebench.spec.KernelMeasurements;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kernel-measurements.json: every figure with its repeats per fork, written by the runner, read by the suite. */
class KernelMeasurementsJsonTest {

    @TempDir
    Path directory;

    @Test
    void everyFigureKeepsEachIterationPerForkAndRoundTrips() throws Exception {
        // Two forks of a 256 MiB copy: 20 ms and 40 ms in the first, 25 ms in the second.
        List<JmhResult> results = JmhResults.parse(new ObjectMapper().readTree("""
                [{"benchmark":"dev.servebench.kernels.bench.MemcpyBenchmark.copy","params":{"bytes":"268435456",
                  "threads":"2"},"primaryMetric":{"score":28.3,"scoreError":1.0,"scoreUnit":"ms/op",
                  "rawData":[[20.0,40.0],[25.0]]}},
                 {"benchmark":"dev.servebench.kernels.bench.ClientCeilingBenchmark.run","params":{},
                  "primaryMetric":{"score":1,"scoreError":0,"scoreUnit":"ms/op","rawData":[[1.0]]}}]
                """), "jmh.json");

        List<KernelMeasurements.Value> values = KernelMeasurementsJson.values(results);

        // A benchmark no kernel metric is computed from adds nothing; memcpy gives both of its figures.
        assertThat(values).extracting(KernelMeasurements.Value::metric)
                .containsExactly(KernelMetric.MEMCPY_GBPS, KernelMetric.MEMCPY_PER_THREAD_GBPS);
        double bytes = 268435456;
        KernelMeasurements.Value copy = values.getFirst();
        assertThat(copy.value()).isCloseTo(2 * bytes / 0.025 / 1e9, within(1e-9));
        assertThat(copy.forks()).hasSize(2);
        assertThat(copy.forks().get(0)).containsExactly(2 * bytes / 0.020 / 1e9, 2 * bytes / 0.040 / 1e9);
        assertThat(copy.iterations()).isEqualTo(3);

        Path file = directory.resolve(KernelMeasurementsJson.FILE_NAME);
        KernelMeasurementsJson.write(file, "smoke run", values);
        KernelMeasurements read = KernelMeasurementsJson.read(directory);

        assertThat(read.absence()).isEmpty();
        assertThat(read.source()).isEqualTo(file.toString());
        assertThat(read.values()).isEqualTo(values);
    }

    @Test
    void aMissingFileIsAnAbsenceWithTheReasonAndABrokenOneAnErrorNamingIt() throws Exception {
        KernelMeasurements none = KernelMeasurementsJson.read(directory);
        assertThat(none.absence()).hasValueSatisfying(reason -> assertThat(reason).isEqualTo("no kernel results at "
                + directory.resolve(KernelMeasurementsJson.FILE_NAME) + " (the kernel benchmark runner writes"
                + " kernel-measurements.json into its --output directory)"));

        Path file = directory.resolve(KernelMeasurementsJson.FILE_NAME);
        Files.writeString(file, """
                {"run": "x", "figures": [{"metric": "moe_gflops", "parameters": {}, "value": "NaN", "forks": []},
                  {"metric": "moe_tflops", "parameters": {}, "value": 1, "forks": []}]}
                """);
        assertThatThrownBy(() -> KernelMeasurementsJson.read(file)).hasMessage(file
                + ": figures[1]: unknown kernel metric \"moe_tflops\"");
        Files.writeString(file, """
                {"run": "x", "figures": [{"metric": "moe_gflops", "parameters": {}, "value": "NaN", "forks": []}]}
                """);
        assertThat(KernelMeasurementsJson.read(file).values().getFirst().value()).isNaN();
    }
}
