package dev.servebench.perf;

import dev.servebench.results.RooflineJson;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.PointRoofline;
import dev.servebench.spec.LoadPointBounds;
import dev.servebench.telemetry.gpu.PhaseEnergy;
import java.util.Optional;
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

    /**
     * A measured point, whether its validity conditions all held, and the GPUs' energy over its last repeat
     * (empty without GPU samples).
     */
    public record Entry(PointMeasurement measurement, boolean valid, Optional<PhaseEnergy> energy) {
        public Entry(PointMeasurement measurement, boolean valid) {
            this(measurement, valid, Optional.empty());
        }

        public Entry {
            java.util.Objects.requireNonNull(energy, "energy");
        }
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
        add(measurement, valid, Optional.empty());
    }

    /** @param energy the GPUs' energy over the point's last repeat, when they were sampled */
    public synchronized void add(PointMeasurement measurement, boolean valid, Optional<PhaseEnergy> energy)
            throws IOException {
        entries.add(new Entry(measurement, valid, energy));
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
            entry.energy().ifPresent(energy -> point.set("energy", energy(energy, entry.measurement())));
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

    /** Of the last repeat, whose GPU samples these are, with that repeat's output tokens. */
    static ObjectNode energy(PhaseEnergy energy, PointMeasurement measurement) {
        ObjectNode node = JSON.createObjectNode();
        OptionalDouble outputTokens = measurement.repeats().getLast().summary().value(MetricId.TOTAL_OUTPUT_TOKENS);
        node.put("repeat", measurement.repeats().size());
        node.put("seconds", energy.seconds());
        node.put("total_joules", energy.totalJoules());
        putOptional(node, "output_tokens_per_joule", energy.outputTokensPerJoule(outputTokens));
        putOptional(node, "share_of_power_limit", energy.shareOfPowerLimit());
        ArrayNode gpus = node.putArray("gpus");
        for (PhaseEnergy.GpuEnergy gpu : energy.gpus()) {
            ObjectNode g = gpus.addObject();
            g.put("index", gpu.index());
            g.put("joules", gpu.joules());
            g.put("mean_power_w", gpu.meanPowerW());
            putOptional(g, "power_limit_w", gpu.powerLimitW());
            putOptional(g, "share_of_power_limit", gpu.shareOfPowerLimit());
        }
        node.put("description", energy.describe(outputTokens));
        return node;
    }

    private static void putOptional(ObjectNode node, String key, OptionalDouble value) {
        if (value.isPresent()) {
            node.put(key, value.getAsDouble());
        } else {
            node.putNull(key);
        }
    }
}
