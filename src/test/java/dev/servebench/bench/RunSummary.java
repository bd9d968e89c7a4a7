package dev.servebench.bench;

import dev.servebench.results.SummaryFile;
import dev.servebench.results.SummarySection;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The numbers this benchmark takes from the {@code <label>.summary.json} that {@code servebench run} writes
 * ({@link SummaryFile}): SGLang's {@code output_throughput}, {@code completed}, {@code duration}, and servebench's
 * {@code failed} and {@code p99_dispatch_lag_ms} metrics and the point's validity. NaN (or -1 for counts) where
 * the summary lacks a value.
 */
record RunSummary(double outputThroughput, long completed, long failed, double durationSeconds,
                  double p99DispatchLagMs, boolean valid) {

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
        return Optional.of(of(SummaryFile.read(files.getLast())));
    }

    static RunSummary of(SummaryFile summary) {
        SummarySection ours = summary.servebench();
        return new RunSummary(summary.result("output_throughput").orElse(Double.NaN),
                (long) summary.result("completed").orElse(-1), (long) ours.metric("failed").orElse(-1),
                summary.result("duration").orElse(Double.NaN), ours.metric("p99_dispatch_lag_ms").orElse(Double.NaN),
                ours.validity().valid());
    }
}
