package dev.servebench.perf;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.servebench.baseline.PairedPoint;
import dev.servebench.history.RunSamples;
import dev.servebench.metric.MetricId;
import dev.servebench.results.AtomicFiles;
import dev.servebench.spec.LoadPointKey;
import dev.servebench.telemetry.MachineSpeedProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code compare.json}: everything an A/B comparison measured, raw, so that it can be judged again
 * ({@code servebench compare --judge DIR}, the fixtures' tests): the spec's name and hash, each side's
 * target, the seed and the order each round measured in, and one entry per round × side × load point with
 * every metric (or the error that stopped it). Rewritten atomically after each measurement.
 *
 * @param plannedRounds the rounds asked for; the rounds after them were added to replace rounds whose machine
 *                probes disagreed ({@code --extra-rounds}); recordings from before rounds were added have 0 here,
 *                read as all of them
 * @param seed    seeds the order of every round
 * @param pairing how a round's two measurements shared the machine; recordings from before it was a choice
 *                were sequential
 * @param instances server instances per side: 1 when each side was started once and kept up, K when fresh
 *                servers were started for each of K blocks of consecutive rounds ({@link InstanceBlocks}), the
 *                rounds when alternating; recordings from before it was a choice have 0 here, read so
 * @param order   per round, what was measured in which order, e.g. {@code ["concurrency=16 B", "concurrency=16 A", …]}
 * @param seconds wall-clock time of the comparison so far, the targets' first start excluded (starts of fresh
 *                instances and alternating turns included)
 */
public record CompareRecording(String format, String spec, String specSha256, int rounds, int plannedRounds, long seed,
        CompareRun.Pairing pairing, int instances, Map<String, String> targets, List<List<String>> order,
        List<Measured> measurements, double seconds) {

    public static final String FORMAT = "servebench-compare/1";
    public static final String FILE = "compare.json";
    public static final String A = "A";
    public static final String B = "B";

    private static final ObjectMapper JSON = new ObjectMapper()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    public CompareRecording {
        Objects.requireNonNull(spec, "spec");
        if (!FORMAT.equals(format)) {
            throw new IllegalArgumentException("format '" + format + "': expected " + FORMAT);
        }
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds (" + rounds + ") must be >= 1");
        }
        plannedRounds = plannedRounds == 0 ? rounds : plannedRounds;
        if (plannedRounds < 1 || plannedRounds > rounds) {
            throw new IllegalArgumentException("planned_rounds (" + plannedRounds + ") must be in 1..rounds (" + rounds + ")");
        }
        pairing = pairing == null ? CompareRun.Pairing.SEQUENTIAL : pairing;
        instances = instances == 0 ? (pairing == CompareRun.Pairing.ALTERNATING ? rounds : 1) : instances;
        int mostInstances = pairing == CompareRun.Pairing.ALTERNATING ? rounds : plannedRounds;
        if (instances < 1 || instances > mostInstances) {
            throw new IllegalArgumentException("instances (" + instances + ") must be in 1.." + mostInstances
                    + " (at most one per planned round)");
        }
        targets = Map.copyOf(targets);
        order = order.stream().map(List::copyOf).toList();
        measurements = List.copyOf(measurements);
        for (Measured m : measurements) {
            if (m.round() < 1 || m.round() > rounds) {
                throw new IllegalArgumentException("measurement of round " + m.round() + " outside rounds 1.." + rounds);
            }
        }
    }

    /**
     * One side at one load point in one round.
     *
     * @param valid   the point's validity conditions held; an invalid or failed measurement pairs nothing
     * @param metrics every finite metric by id, and {@code machine_probe_ms}
     * @param error   why nothing was measured; empty when it was
     */
    public record Measured(int round, String side, String point, boolean valid, Map<String, Double> metrics,
            String error) {
        public Measured {
            if (!A.equals(side) && !B.equals(side)) {
                throw new IllegalArgumentException("side '" + side + "': expected A or B");
            }
            LoadPointKey.parse(Objects.requireNonNull(point, "point"));
            metrics = Map.copyOf(metrics);
            error = error == null ? "" : error;
        }

        public boolean usable() {
            return valid && error.isEmpty();
        }
    }

    /** What the note of a verdict says about rounds added after the planned ones; empty when none were. */
    public String addedRounds() {
        if (rounds == plannedRounds) {
            return "";
        }
        return (rounds - plannedRounds == 1 ? "round " + rounds : "rounds " + (plannedRounds + 1) + "–" + rounds)
                + " added to replace rounds whose machine probes disagreed";
    }

    /**
     * What the note of a verdict says about server instances when fresh ones were started for blocks of rounds;
     * empty when each side was started once, or for each turn (alternating, which the pairing says).
     */
    public String instancesNote() {
        if (instances == 1 || pairing == CompareRun.Pairing.ALTERNATING) {
            return "";
        }
        return instances + " server instances per side, each started fresh for "
                + new InstanceBlocks(plannedRounds, instances).describe()
                + (rounds > plannedRounds ? " (added rounds on the last)" : "");
    }

    public void write(Path directory) throws IOException {
        AtomicFiles.write(directory.resolve(FILE), JSON.writeValueAsString(this));
    }

    /** Reads {@code DIR/compare.json} (or the file itself); a malformed file says what is wrong and where. */
    public static CompareRecording read(Path path) throws IOException {
        Path file = path.getFileName() != null && path.getFileName().toString().endsWith(".json") ? path
                : path.resolve(FILE);
        try {
            return JSON.readValue(file.toFile(), CompareRecording.class);
        } catch (com.fasterxml.jackson.databind.exc.ValueInstantiationException e) {
            throw new IllegalArgumentException(file + ": " + e.getCause().getMessage(), e);
        } catch (com.fasterxml.jackson.core.JacksonException e) {
            throw new IllegalArgumentException(file + ": not a compare recording: " + e.getOriginalMessage(), e);
        }
    }

    /** The load points in the order first measured, each with both sides' usable rounds. */
    public List<PairedPoint> pairedPoints() {
        Set<String> points = new LinkedHashSet<>();
        measurements.forEach(m -> points.add(m.point()));
        List<PairedPoint> paired = new ArrayList<>();
        for (String point : points) {
            paired.add(new PairedPoint(LoadPointKey.parse(point), side(point, A), side(point, B), probes(point, A),
                    probes(point, B)));
        }
        return paired;
    }

    private List<Map<MetricId, Double>> side(String point, String side) {
        List<Map<MetricId, Double>> rounds = new ArrayList<>();
        for (List<Measured> usable : usableByRound(point, side)) {
            Map<MetricId, Double> values = new HashMap<>();
            usable.forEach(m -> m.metrics().forEach((id, value) -> MetricId.byId(id)
                    .ifPresent(metric -> values.put(metric, value))));
            rounds.add(values);
        }
        return rounds;
    }

    /** Per round (index = round − 1), the usable measurements of {@code side} at {@code point}. */
    private List<List<Measured>> usableByRound(String point, String side) {
        List<List<Measured>> byRound = new ArrayList<>();
        for (int round = 1; round <= this.rounds; round++) {
            int r = round;
            byRound.add(measurements.stream()
                    .filter(m -> m.round() == r && m.side().equals(side) && m.point().equals(point) && m.usable())
                    .toList());
        }
        return byRound;
    }

    /**
     * One side's usable measurements as the history gate sees a run, each round a repeat: for judging a side
     * of one comparison against a side of another, unpaired ({@code servebench compare --unpaired-baseline}).
     */
    public RunSamples sideAsRun(String side) {
        Map<String, Map<String, List<Double>>> byPoint = new LinkedHashMap<>();
        measurements.forEach(m -> byPoint.computeIfAbsent(m.point(), p -> new LinkedHashMap<>()));
        for (Measured m : measurements) {
            if (m.side().equals(side) && m.usable()) {
                m.metrics().forEach((id, value) -> byPoint.get(m.point()).computeIfAbsent(id, k -> new ArrayList<>())
                        .add(value));
            }
        }
        List<RunSamples.PointSamples> points = new ArrayList<>();
        byPoint.forEach((point, metrics) -> {
            Map<String, double[]> values = new LinkedHashMap<>();
            metrics.forEach((id, list) -> values.put(id, list.stream().mapToDouble(Double::doubleValue).toArray()));
            points.add(new RunSamples.PointSamples(point, true, values));
        });
        return new RunSamples(spec, specSha256, "compare side " + side, points);
    }

    /** The machine probe's time before each round's usable measurement of {@code side}, NaN where none. */
    private List<Double> probes(String point, String side) {
        return usableByRound(point, side).stream()
                .map(usable -> usable.isEmpty() ? Double.NaN
                        : usable.getLast().metrics().getOrDefault(MachineSpeedProbe.SAMPLE_KEY, Double.NaN))
                .toList();
    }

    /** Rounds in which every load point was measured on both sides. */
    public long completeRounds() {
        long pointsCount = measurements.stream().map(Measured::point).distinct().count();
        long complete = 0;
        for (int round = 1; round <= rounds; round++) {
            int r = round;
            long usable = measurements.stream().filter(m -> m.round() == r && m.usable()).count();
            complete += usable == 2 * pointsCount ? 1 : 0;
        }
        return complete;
    }
}
