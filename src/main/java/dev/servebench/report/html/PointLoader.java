package dev.servebench.report.html;

import dev.servebench.metric.MetricId;
import dev.servebench.metric.TokenTimeline;
import dev.servebench.record.RecordJsonl;
import dev.servebench.results.MeasurementsFile;
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
     * @param measurements the run's measurements.json
     * @param file         where it came from, for messages
     */
    static List<LoadPointView> points(MeasurementsFile measurements, Path file) throws IOException {
        // The suite names repeat files .rN exactly when the spec asks for more than one repeat.
        int specRepeats = measurements.repeats();
        List<LoadPointView> views = new ArrayList<>();
        for (int i = 0; i < measurements.points().size(); i++) {
            MeasurementsFile.Point point = measurements.points().get(i);
            String where = file + ": points[" + i + "]";
            LoadPointKey key;
            try {
                key = LoadPointKey.parse(point.point());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(where + ": " + e.getMessage());
            }
            if (point.repeats().isEmpty()) {
                throw new IllegalArgumentException(where + ": \"repeats\" must be a non-empty array of"
                        + " {metric id: value}");
            }
            List<Map<MetricId, Double>> repeats = repeats(point.repeats());
            Map<MetricId, LoadPointView.Spread> spreads = new EnumMap<>(MetricId.class);
            for (MetricId metric : MetricId.values()) {
                double[] values = repeats.stream().filter(r -> r.containsKey(metric)).mapToDouble(r -> r.get(metric))
                        .toArray();
                if (values.length > 0) {
                    spreads.put(metric, LoadPointView.Spread.of(values));
                }
            }
            int fileRepeats = specRepeats > 0 ? specRepeats : repeats.size();
            views.add(new LoadPointView(point.point(), point.valid(), point.requested(), repeats.size(), spreads,
                    records(file.getParent(), key, repeats, fileRepeats),
                    java.util.Optional.ofNullable(point.roofline()).map(RooflineView::of),
                    java.util.Optional.ofNullable(point.energy()).map(RooflineView.Energy::of)));
        }
        return views;
    }

    private static List<Map<MetricId, Double>> repeats(List<Map<String, Double>> repeats) {
        List<Map<MetricId, Double>> values = new ArrayList<>();
        for (Map<String, Double> repeat : repeats) {
            Map<MetricId, Double> metrics = new EnumMap<>(MetricId.class);
            // Ids this version does not know come from a newer writer; they are skipped, not guessed at.
            repeat.forEach((id, value) -> MetricId.byId(id).ifPresent(metric -> {
                if (value != null && Double.isFinite(value)) {
                    metrics.put(metric, value);
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
