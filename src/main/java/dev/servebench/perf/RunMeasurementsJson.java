package dev.servebench.perf;

import dev.servebench.results.RooflineJson;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.PointRoofline;
import dev.servebench.spec.LoadPointBounds;
import dev.servebench.results.PointMeasurement;

import dev.servebench.results.AtomicFiles;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.metric.MetricId;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.telemetry.MachineSpeedProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * {@code measurements.json} of a perf-suite run: every metric of every repeat of every measured point, by
 * metric id (and the machine speed probe's time before it), with the spec's name and hash and whether each
 * point was valid. The input of baselines and
 * the regression gate (repeats are the samples its statistics need). Rewritten atomically after each
 * point, so an interrupted run keeps what it measured.
 */
public final class RunMeasurementsJson {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /** A measured point and whether its validity conditions all held. */
    public record Entry(PointMeasurement measurement, boolean valid) {
    }

    private final Path file;
    private final PerformanceSpec spec;
    private final String target;
    private final List<Entry> entries = new ArrayList<>();

    private final MeasuredHardware measuredHardware;

    public RunMeasurementsJson(Path file, PerformanceSpec spec, String target) {
        this(file, spec, target, MeasuredHardware.NONE);
    }

    /** @param measuredHardware the run's own hardware figures for the spec's {@code measured} entries */
    public RunMeasurementsJson(Path file, PerformanceSpec spec, String target, MeasuredHardware measuredHardware) {
        this.file = file;
        this.spec = spec;
        this.target = target;
        this.measuredHardware = java.util.Objects.requireNonNull(measuredHardware, "measuredHardware");
    }

    public synchronized void add(PointMeasurement measurement, boolean valid) throws IOException {
        entries.add(new Entry(measurement, valid));
        AtomicFiles.write(file, JSON.writeValueAsString(toJson(spec, target, entries, measuredHardware)));
    }

    static ObjectNode toJson(PerformanceSpec spec, String target, List<Entry> entries) {
        return toJson(spec, target, entries, MeasuredHardware.NONE);
    }

    /**
     * With the spec's {@code model:} and {@code hardware:}, each point also carries its bound and the median
     * output throughput and mean ITL (as expectations read them) as fractions of it.
     */
    public static PointRoofline roofline(PerformanceSpec spec, PointMeasurement measurement,
            MeasuredHardware measuredHardware) {
        return PointRoofline.of(LoadPointBounds.at(spec, measurement.key(), measuredHardware),
                measurement.median(MetricId.OUTPUT_THROUGHPUT), measurement.median(MetricId.MEAN_ITL_MS));
    }

    static ObjectNode toJson(PerformanceSpec spec, String target, List<Entry> entries,
            MeasuredHardware measuredHardware) {
        ObjectNode root = JSON.createObjectNode();
        root.put("spec", spec.name());
        root.put("spec_sha256", spec.source().sha256());
        root.put("target", target);
        root.put("repeats", spec.repeats());
        root.put("repeat_order", spec.repeatOrder().label());
        ArrayNode points = root.putArray("points");
        for (Entry entry : entries) {
            ObjectNode point = points.addObject();
            point.put("point", entry.measurement().key().toString());
            point.put("requested", entry.measurement().requested());
            point.put("valid", entry.valid());
            if (spec.deployment().isPresent()) {
                point.set(RooflineJson.KEY, RooflineJson.toJson(spec.deployment().get(),
                        roofline(spec, entry.measurement(), measuredHardware)));
            }
            ArrayNode repeats = point.putArray("repeats");
            for (PointMeasurement.Repeat repeat : entry.measurement().repeats()) {
                ObjectNode values = repeats.addObject();
                for (MetricId metric : MetricId.values()) {
                    OptionalDouble value = repeat.summary().value(metric);
                    if (value.isPresent() && Double.isFinite(value.getAsDouble())) {
                        values.put(metric.id(), value.getAsDouble());
                    }
                }
                values.put(MachineSpeedProbe.SAMPLE_KEY, repeat.machineProbeMs());
            }
        }
        return root;
    }
}
