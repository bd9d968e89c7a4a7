package dev.servebench.report.html;

import java.util.List;
import java.util.Objects;

/**
 * A kernel benchmark run's figures, each next to the baseline measured in the same run. What they must
 * reach is judged by the perf suite from the spec's kernel lines; the report shows those verdicts with the
 * others.
 *
 * @param source the figures.json the tables came from
 */
public record KernelTables(String source, List<Figure> figures) {

    public KernelTables {
        Objects.requireNonNull(source, "source");
        figures = List.copyOf(figures);
    }

    /**
     * One benchmark point.
     *
     * @param parameters the point, e.g. "backend=native output=bf16 layout=linear 16384x8192 threads=2"
     * @param baseline   the same-run baseline with its unit, or "" when the point has none
     * @param ratios     figure / baseline (or named speed-ups), or "" when the point has none
     */
    public record Figure(String benchmark, String parameters, double value, String unit, String baseline,
            String ratios) {
        public Figure {
            if (benchmark == null || benchmark.isBlank() || unit == null || unit.isBlank()) {
                throw new IllegalArgumentException("a kernel figure needs a benchmark and a unit");
            }
            Objects.requireNonNull(parameters, "parameters");
            Objects.requireNonNull(baseline, "baseline");
            Objects.requireNonNull(ratios, "ratios");
        }
    }
}
