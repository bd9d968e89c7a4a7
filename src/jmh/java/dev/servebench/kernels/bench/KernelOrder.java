package dev.servebench.kernels.bench;

import dev.servebench.kernels.results.KernelCompareRecording;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * What a kernel A/B comparison measures and in which order. The points are the smoke plan's ({@link KernelPlan})
 * that run the kernel library: a benchmark without a {@code backend} parameter, or its {@code native} backend
 * (the Java references and ggml run the same code on both sides, so they could only ever compare equal). Each
 * round visits them in a random order and at each flips a coin for which side's fork runs first, all from the
 * seed and the round, as the serving comparison does: a steady trend (a neighbour's build ramping up) then
 * favours neither side.
 */
final class KernelOrder {

    /** One kernel point: a JMH benchmark class with one value per parameter. */
    record Point(String benchmarkClass, Map<String, String> params) {
        Point {
            Objects.requireNonNull(benchmarkClass, "benchmarkClass");
            params = Collections.unmodifiableMap(new LinkedHashMap<>(params));
        }

        String simpleName() {
            return benchmarkClass.substring(benchmarkClass.lastIndexOf('.') + 1);
        }

        @Override
        public String toString() {
            return KernelCompareRecording.pointName(simpleName(), params);
        }
    }

    /** One fork to run: a side at a point. */
    record Visit(Point point, String side) {
        @Override
        public String toString() {
            return point + " " + side;
        }
    }

    private KernelOrder() {
    }

    /**
     * The smoke plan's library points whose class {@code only} finds, with {@code params} replacing a
     * parameter's values wherever a step has it, in plan order, each once.
     *
     * @throws IllegalArgumentException nothing is left to measure
     */
    static List<Point> points(int threads, Optional<Pattern> only, Map<String, List<String>> params) {
        Set<Point> points = new LinkedHashSet<>();
        for (KernelPlan.Step step : KernelPlan.forMode(KernelMode.SMOKE, threads).steps()) {
            if (only.isPresent() && !only.get().matcher(step.benchmarkClass()).find()) {
                continue;
            }
            Map<String, String[]> grid = new LinkedHashMap<>(step.params());
            grid.replaceAll((name, values) -> params.containsKey(name) ? params.get(name).toArray(String[]::new)
                    : values);
            for (Map<String, String> combination : combinations(grid)) {
                String backend = combination.get("backend");
                if (backend == null || backend.equals("native")) {
                    points.add(new Point(step.benchmarkClass(), combination));
                }
            }
        }
        if (points.isEmpty()) {
            throw new IllegalArgumentException("no kernel point to compare"
                    + only.map(p -> " matches --only " + p.pattern()).orElse("")
                    + (params.isEmpty() ? "" : " with " + params)
                    + "; only points that run the kernel library are compared (no backend parameter, or"
                    + " backend=native) of MemcpyBenchmark, Nvfp4DequantBenchmark, MoeBenchmark, AllreduceBenchmark");
        }
        return List.copyOf(points);
    }

    /** The forks of {@code round} (from 1) in the order they run. */
    static List<Visit> round(List<Point> points, long seed, int round) {
        Random random = new Random(seed * 1_000_003L + round);
        List<Point> shuffled = new ArrayList<>(points);
        Collections.shuffle(shuffled, random);
        List<Visit> visits = new ArrayList<>();
        for (Point point : shuffled) {
            boolean aFirst = random.nextBoolean();
            visits.add(new Visit(point, aFirst ? KernelCompareRecording.A : KernelCompareRecording.B));
            visits.add(new Visit(point, aFirst ? KernelCompareRecording.B : KernelCompareRecording.A));
        }
        return visits;
    }

    /** Every combination of one value per parameter, the first parameter varying slowest. */
    private static List<Map<String, String>> combinations(Map<String, String[]> grid) {
        List<Map<String, String>> combinations = new ArrayList<>();
        combinations.add(new LinkedHashMap<>());
        for (Map.Entry<String, String[]> parameter : grid.entrySet()) {
            List<Map<String, String>> extended = new ArrayList<>();
            for (Map<String, String> partial : combinations) {
                for (String value : parameter.getValue()) {
                    Map<String, String> next = new LinkedHashMap<>(partial);
                    next.put(parameter.getKey(), value);
                    extended.add(next);
                }
            }
            combinations = extended;
        }
        return combinations;
    }
}
