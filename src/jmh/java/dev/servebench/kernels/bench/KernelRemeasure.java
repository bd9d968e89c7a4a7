package dev.servebench.kernels.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.servebench.kernels.results.JmhMerge;
import dev.servebench.kernels.results.JmhResults;
import dev.servebench.kernels.results.KernelMeasurementsJson;
import dev.servebench.spec.KernelMeasurements;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Re-measures the figures of kernel lines that are still undecided after a run, within a {@link RemeasureBudget}:
 * each round gives every such figure's benchmark point one fresh JMH fork, adds its iterations to the point's
 * result in the run ({@link JmhMerge}), rewrites the run's files and asks again which lines are undecided, so a
 * line decided after one round costs no second. Odd rounds visit the points in the run's order, even rounds in
 * the reverse order: over two rounds the two sides of a line run A B B A, so a drift of the machine during
 * re-measuring weighs on both alike. A fork that fails is reported and the round goes on.
 */
final class KernelRemeasure {

    /** One JMH fork of one point: the JMH results (an array, as {@code jmh.json}) it wrote. */
    @FunctionalInterface
    interface Forks {
        JsonNode fork(KernelOrder.Point point) throws Exception;
    }

    /** Writes the run's files from its merged JMH results, after each round. */
    @FunctionalInterface
    interface RunFiles {
        void write(ArrayNode merged) throws IOException;
    }

    private KernelRemeasure() {
    }

    /**
     * @param merged    the run's JMH results, extended in place
     * @param source    names the results in the measurements that {@code undecided} judges
     * @param undecided the figures of the lines still undecided on the measurements given
     * @param nanos     the clock the budget is kept by
     * @return what was done, as Markdown lines for figures.md (empty when nothing was undecided)
     */
    static List<String> run(RemeasureBudget budget, ArrayNode merged, String source,
            Function<KernelMeasurements, List<KernelMeasurements.Value>> undecided, Forks forks, RunFiles files,
            LongSupplier nanos, PrintStream out) throws IOException {
        Objects.requireNonNull(budget, "budget");
        List<String> report = new ArrayList<>();
        long started = nanos.getAsLong();
        long deadline = started + budget.seconds() * 1_000_000_000L;
        for (int round = 1; ; round++) {
            List<KernelOrder.Point> points = points(undecided.apply(measurements(merged, source)), merged);
            if (points.isEmpty()) {
                if (round > 1) {
                    report.add("- every line decided after " + (round - 1) + (round == 2 ? " round" : " rounds")
                            + " (" + seconds(nanos.getAsLong() - started) + ")");
                }
                return report;
            }
            if (round > budget.rounds() || nanos.getAsLong() >= deadline) {
                report.add("- budget (" + budget + ") spent after " + (round - 1) + (round == 2 ? " round" : " rounds")
                        + " (" + seconds(nanos.getAsLong() - started) + "): " + describe(points)
                        + " still undecided");
                return report;
            }
            if (round % 2 == 0) {
                Collections.reverse(points);
            }
            out.println("# re-measuring round " + round + " of " + budget.rounds() + ": one fork each of "
                    + describe(points));
            List<String> measured = new ArrayList<>();
            List<String> skipped = new ArrayList<>();
            for (KernelOrder.Point point : points) {
                if (nanos.getAsLong() >= deadline) {
                    skipped.add(point.toString());
                    continue;
                }
                try {
                    JmhMerge.append(merged, forks.fork(point));
                    measured.add(point.toString());
                } catch (Exception e) {
                    String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
                    measured.add(point + " (fork failed: " + why.lines().findFirst().orElse(why) + ")");
                    out.println("re-measuring fork failed: " + point + ": " + why);
                }
            }
            files.write(merged);
            report.add("- round " + round + " (" + seconds(nanos.getAsLong() - started) + " in all): one more fork of "
                    + String.join("; ", measured) + (skipped.isEmpty() ? ""
                    : "; budget spent before " + String.join("; ", skipped)));
        }
    }

    /** The run's figures as kernel lines read them. */
    static KernelMeasurements measurements(ArrayNode merged, String source) {
        return KernelMeasurements.of(source, KernelMeasurementsJson.values(JmhResults.parse(merged, source)));
    }

    /** The JMH points of {@code figures}, each once, in the order the run has them. */
    private static List<KernelOrder.Point> points(List<KernelMeasurements.Value> figures, ArrayNode merged) {
        Set<KernelOrder.Point> wanted = new LinkedHashSet<>();
        for (KernelMeasurements.Value figure : figures) {
            wanted.add(new KernelOrder.Point(KernelPlan.BENCH + figure.metric().benchmark().className(),
                    figure.parameters()));
        }
        List<KernelOrder.Point> ordered = new ArrayList<>();
        for (JsonNode result : merged) {
            String benchmark = result.path("benchmark").asText();
            String className = benchmark.substring(0, Math.max(0, benchmark.lastIndexOf('.')));
            for (KernelOrder.Point point : wanted) {
                if (point.benchmarkClass().equals(className) && sameParameters(point, result.path("params"))
                        && !ordered.contains(point)) {
                    ordered.add(point);
                }
            }
        }
        return ordered;
    }

    private static boolean sameParameters(KernelOrder.Point point, JsonNode params) {
        if (params.size() != point.params().size()) {
            return false;
        }
        return point.params().entrySet().stream().allMatch(e -> e.getValue().equals(params.path(e.getKey()).asText()));
    }

    private static String describe(List<KernelOrder.Point> points) {
        return points.size() + (points.size() == 1 ? " point (" : " points (") + String.join("; ",
                points.stream().map(KernelOrder.Point::toString).toList()) + ")";
    }

    private static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
