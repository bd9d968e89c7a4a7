package dev.servebench.perf;

import dev.servebench.results.RooflineJson;
import dev.servebench.roofline.MeasuredHardware;
import dev.servebench.roofline.PointRoofline;
import dev.servebench.spec.LoadPointBounds;
import dev.servebench.telemetry.gpu.PhaseEnergy;
import java.util.Optional;
import dev.servebench.results.PointMeasurement;

import dev.servebench.results.FileFormat;
import dev.servebench.results.MeasurementsFile;
import dev.servebench.metric.MetricId;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.telemetry.MachineSpeedProbe;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * {@code measurements.json} of a perf-suite run: every metric of every repeat of every measured point, by
 * metric id (and the machine speed probe's time before it), with the spec's name and hash and whether each
 * point was valid. The input of baselines and
 * the regression gate (repeats are the samples its statistics need). Rewritten atomically after each
 * point, so an interrupted run keeps what it measured.
 */
public final class RunMeasurementsJson {

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
        toJson(spec, target, entries, measuredHardware).write(file);
    }

    static MeasurementsFile toJson(PerformanceSpec spec, String target, List<Entry> entries) {
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

    static MeasurementsFile toJson(PerformanceSpec spec, String target, List<Entry> entries,
            MeasuredHardware measuredHardware) {
        List<MeasurementsFile.Point> points = new ArrayList<>();
        for (Entry entry : entries) {
            List<Map<String, Double>> repeats = new ArrayList<>();
            for (PointMeasurement.Repeat repeat : entry.measurement().repeats()) {
                Map<String, Double> values = new LinkedHashMap<>();
                for (MetricId metric : MetricId.values()) {
                    OptionalDouble value = repeat.summary().value(metric);
                    if (value.isPresent() && Double.isFinite(value.getAsDouble())) {
                        values.put(metric.id(), value.getAsDouble());
                    }
                }
                values.put(MachineSpeedProbe.SAMPLE_KEY, repeat.machineProbeMs());
                repeats.add(values);
            }
            points.add(new MeasurementsFile.Point(entry.measurement().key().toString(), entry.measurement().requested(),
                    entry.valid(), entry.energy().map(energy -> energy(energy, entry.measurement())).orElse(null),
                    spec.deployment().map(deployment -> RooflineJson.of(deployment,
                            roofline(spec, entry.measurement(), measuredHardware))).orElse(null),
                    repeats));
        }
        return new MeasurementsFile(FileFormat.MEASUREMENTS.id(), spec.name(), spec.source().sha256(), target,
                spec.repeats(), spec.repeatOrder().label(), points);
    }

    /** Of the last repeat, whose GPU samples these are, with that repeat's output tokens. */
    static MeasurementsFile.Energy energy(PhaseEnergy energy, PointMeasurement measurement) {
        OptionalDouble outputTokens = measurement.repeats().getLast().summary().value(MetricId.TOTAL_OUTPUT_TOKENS);
        List<MeasurementsFile.Gpu> gpus = new ArrayList<>();
        for (PhaseEnergy.GpuEnergy gpu : energy.gpus()) {
            gpus.add(new MeasurementsFile.Gpu(gpu.index(), gpu.joules(), gpu.meanPowerW(), boxed(gpu.powerLimitW()),
                    boxed(gpu.shareOfPowerLimit())));
        }
        return new MeasurementsFile.Energy(measurement.repeats().size(), energy.seconds(), energy.totalJoules(),
                boxed(energy.outputTokensPerJoule(outputTokens)), boxed(energy.shareOfPowerLimit()), gpus,
                energy.describe(outputTokens));
    }

    private static Double boxed(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }
}
