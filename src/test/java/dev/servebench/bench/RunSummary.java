package dev.servebench.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The numbers this benchmark takes from the {@code <label>.summary.json} that {@code servebench run} writes:
 * SGLang's top-level {@code output_throughput}, {@code completed}, {@code duration}, and under
 * {@code servebench}: {@code metrics.failed.value} (else {@code requests} - completed),
 * {@code metrics.p99_dispatch_lag_ms.value}, {@code validity.valid}.
 * NaN (or -1 for counts) where the summary lacks a field.
 */
record RunSummary(double outputThroughput, long completed, long failed, double durationSeconds,
                  double p99DispatchLagMs, Boolean valid) {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The one summary file in {@code dir}; empty when the run wrote none (it failed before the end). */
    static Optional<RunSummary> find(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(p -> p.getFileName().toString().endsWith(".summary.json")).sorted().toList();
        }
        if (files.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(parse(MAPPER.readTree(files.getLast().toFile())));
    }

    static RunSummary parse(JsonNode root) {
        JsonNode ours = root.path("servebench");
        long completed = root.path("completed").asLong(-1);
        long requests = ours.path("requests").asLong(-1);
        JsonNode valid = ours.path("validity").path("valid");
        long failed = ours.path("metrics").path("failed").path("value")
                .asLong(completed < 0 || requests < 0 ? -1 : requests - completed);
        return new RunSummary(root.path("output_throughput").asDouble(Double.NaN), completed, failed,
                root.path("duration").asDouble(Double.NaN),
                ours.path("metrics").path("p99_dispatch_lag_ms").path("value").asDouble(Double.NaN),
                valid.isBoolean() ? valid.asBoolean() : null);
    }
}
