package dev.servebench.report.html;

import com.fasterxml.jackson.databind.JsonNode;
import dev.servebench.metric.MetricId;
import dev.servebench.metric.TokenTimeline;
import dev.servebench.record.RecordJsonl;
import dev.servebench.record.RequestRecord;
import dev.servebench.spec.LoadPointKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/** The load points of {@code measurements.json}, each with the detail of its representative repeat's records. */
final class PointLoader {

    private PointLoader() {
    }

    /**
     * @param measurements the parsed measurements.json
     * @param file         where it came from, for messages
     */
    static List<LoadPointView> points(JsonNode measurements, Path file) throws IOException {
        JsonNode points = measurements.path("points");
        if (!points.isArray()) {
            throw new IllegalArgumentException(file + ": \"points\" is not an array; expected a perf run's"
                    + " measurements.json");
        }
        // The suite names repeat files .rN exactly when the spec asks for more than one repeat.
        int specRepeats = measurements.path("repeats").asInt(0);
        List<LoadPointView> views = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            JsonNode point = points.get(i);
            String where = file + ": points[" + i + "]";
            String name = point.path("point").asText("");
            LoadPointKey key;
            try {
                key = LoadPointKey.parse(name);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage());
            }
            List<Map<MetricId, Double>> repeats = repeats(point.path("repeats"), where);
            Map<MetricId, LoadPointView.Spread> spreads = new EnumMap<>(MetricId.class);
            for (MetricId metric : MetricId.values()) {
                double[] values = repeats.stream().filter(r -> r.containsKey(metric)).mapToDouble(r -> r.get(metric))
                        .toArray();
                if (values.length > 0) {
                    spreads.put(metric, LoadPointView.Spread.of(values));
                }
            }
            int fileRepeats = specRepeats > 0 ? specRepeats : repeats.size();
            views.add(new LoadPointView(name, point.path("valid").asBoolean(false), point.path("requested").asInt(0),
                    repeats.size(), spreads, records(file.getParent(), key, repeats, fileRepeats),
                    point.has("roofline") ? java.util.Optional.of(RooflineView.parse(point.get("roofline"), where))
                            : java.util.Optional.empty(),
                    point.has("energy") ? java.util.Optional.of(RooflineView.Energy.parse(point.get("energy"),
                            where + ".energy")) : java.util.Optional.empty()));
        }
        return views;
    }

    private static List<Map<MetricId, Double>> repeats(JsonNode repeats, String where) {
        if (!repeats.isArray() || repeats.isEmpty()) {
            throw new IllegalArgumentException(where + ": \"repeats\" must be a non-empty array of {metric id: value}");
        }
        List<Map<MetricId, Double>> values = new ArrayList<>();
        for (JsonNode repeat : repeats) {
            Map<MetricId, Double> metrics = new EnumMap<>(MetricId.class);
            // Ids this version does not know come from a newer writer; they are skipped, not guessed at.
            repeat.properties().forEach(e -> MetricId.byId(e.getKey()).ifPresent(metric -> {
                if (!e.getValue().isNumber()) {
                    throw new IllegalArgumentException(where + ": " + e.getKey() + " is " + e.getValue()
                            + "; expected a number");
                }
                if (Double.isFinite(e.getValue().asDouble())) {
                    metrics.put(metric, e.getValue().asDouble());
                }
            }));
            values.add(metrics);
        }
        return values;
    }

    /**
     * The records of the repeat with the median output_throughput (the lower middle one for an even count, as
     * PointMeasurement.representative chooses); the first repeat when none reported the metric.
     */
    private static Input<LoadPointView.RepeatRecords> records(Path directory, LoadPointKey key,
            List<Map<MetricId, Double>> repeats, int fileRepeats) throws IOException {
        List<Integer> order = IntStream.range(0, repeats.size()).boxed()
                .sorted(Comparator.comparingDouble(r -> repeats.get(r).getOrDefault(MetricId.OUTPUT_THROUGHPUT, Double.NaN)))
                .toList();
        boolean chosen = repeats.stream().anyMatch(r -> r.containsKey(MetricId.OUTPUT_THROUGHPUT));
        int repeat = chosen ? order.get((order.size() - 1) / 2) + 1 : 1;
        String source = repeats.size() == 1 ? "the only repeat"
                : "repeat " + repeat + " of " + repeats.size()
                        + (chosen ? " (median " + MetricId.OUTPUT_THROUGHPUT.id() + ")" : " (first; no "
                        + MetricId.OUTPUT_THROUGHPUT.id() + " to choose by)");
        String stem = key.toLoadPoint(1.0).label() + (fileRepeats > 1 ? ".r" + repeat : "");
        Path file = directory.resolve(stem + ".records.jsonl");
        if (!Files.isRegularFile(file)) {
            return Input.missing("no " + file.getFileName() + " in " + directory + ", so no per-request detail");
        }
        List<RequestRecord> records = RecordJsonl.read(file);
        List<RequestRecord> successes = records.stream().filter(RequestRecord::succeeded).toList();
        double[] ttft = successes.stream().mapToDouble(RequestRecord::sglangTtftSeconds).toArray();
        double[] itl = successes.stream().flatMapToDouble(r -> java.util.Arrays.stream(r.sglangItlSeconds())).toArray();
        return Input.found(new LoadPointView.RepeatRecords(source, file.getFileName().toString(),
                TokenTimeline.tokenEventsPerSecond(records), Percentiles.of(ttft, 1000), Percentiles.of(itl, 1000)));
    }
}
