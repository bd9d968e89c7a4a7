package dev.servebench.report.html;

import java.util.List;
import java.util.Objects;

/**
 * Everything the HTML report of one perf run shows, and nothing else: the renderer reads no files.
 *
 * @param spec         the spec's name
 * @param runDirectory where the run's files are, as given
 * @param generatedAt  when the report was made (ISO-8601)
 * @param points       the measured load points, in measurement order
 */
public record ReportModel(String spec, String runDirectory, String generatedAt, Input<EnvironmentView> environment,
        Input<List<VerdictRow>> verdicts, List<LoadPointView> points, Input<KernelTables> kernels,
        Input<TrendView> trends) {

    public ReportModel {
        if (spec == null || spec.isBlank()) {
            throw new IllegalArgumentException("a report needs the spec's name");
        }
        Objects.requireNonNull(runDirectory, "runDirectory");
        Objects.requireNonNull(generatedAt, "generatedAt");
        Objects.requireNonNull(environment, "environment");
        Objects.requireNonNull(verdicts, "verdicts");
        points = List.copyOf(points);
        Objects.requireNonNull(kernels, "kernels");
        Objects.requireNonNull(trends, "trends");
        if (verdicts instanceof Input.Found<List<VerdictRow>> found) {
            verdicts = Input.found(List.copyOf(found.value()));
        }
    }
}
