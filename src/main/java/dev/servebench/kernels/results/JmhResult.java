package dev.servebench.kernels.results;

import dev.servebench.metric.NumpyStats;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One JMH result (a benchmark method at one parameter point), reduced to what the kernel figures need.
 *
 * @param benchmark      {@code SimpleClass.method}
 * @param params         JMH {@code @Param} values
 * @param unit           JMH score unit, e.g. {@code us/op}
 * @param score          JMH's mean over all measurement iterations of all forks
 * @param scoreError     JMH's half-width of the 99.9% confidence interval ({@code NaN} with too few samples)
 * @param forkScores     every measurement iteration's score, per fork (JMH's {@code rawData})
 */
public record JmhResult(String benchmark, Map<String, String> params, String unit, double score, double scoreError,
        List<List<Double>> forkScores) {

    public JmhResult {
        Objects.requireNonNull(benchmark, "benchmark");
        params = Map.copyOf(params);
        Objects.requireNonNull(unit, "unit");
        forkScores = forkScores.stream().map(List::copyOf).toList();
        if (forkScores.stream().allMatch(List::isEmpty)) {
            throw new IllegalArgumentException(benchmark + " " + params + " has no measurement iterations");
        }
    }

    /** Every measurement iteration's score, all forks together. */
    public List<Double> iterationScores() {
        return forkScores.stream().flatMap(List::stream).toList();
    }

    /** Median of the iteration scores: the figure we report, robust to one disturbed iteration. */
    public double median() {
        return NumpyStats.median(iterationScores().stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The median converted to seconds per operation. */
    public double medianSeconds() {
        return median() * secondsPerUnit();
    }

    /** Each iteration's score in seconds per operation, per fork. */
    public List<List<Double>> forkSeconds() {
        double factor = secondsPerUnit();
        return forkScores.stream().map(fork -> fork.stream().map(score -> score * factor).toList()).toList();
    }

    /** JMH's score error in seconds per operation. */
    public double errorSeconds() {
        return scoreError * secondsPerUnit();
    }

    private double secondsPerUnit() {
        return switch (unit) {
            case "ns/op" -> 1e-9;
            case "us/op" -> 1e-6;
            case "ms/op" -> 1e-3;
            case "s/op" -> 1;
            default -> throw new IllegalArgumentException(benchmark + ": score unit " + unit
                    + " is not a time per operation; expected ns/op, us/op, ms/op or s/op (Mode.AverageTime)");
        };
    }

    public String param(String name) {
        String value = params.get(name);
        if (value == null) {
            throw new IllegalArgumentException(benchmark + " has no @Param " + name + "; it has " + params.keySet());
        }
        return value;
    }

    public long longParam(String name) {
        return Long.parseLong(param(name));
    }

    public int intParam(String name) {
        return Integer.parseInt(param(name));
    }

    public String className() {
        int dot = benchmark.indexOf('.');
        return dot < 0 ? benchmark : benchmark.substring(0, dot);
    }
}
