package dev.servebench.report.html;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.servebench.history.BaselineFiles;
import dev.servebench.metric.NumpyStats;
import dev.servebench.results.MeasurementsFile;
import dev.servebench.telemetry.RunEnvironment;
import dev.servebench.telemetry.MachineSpeedProbe;
import dev.servebench.telemetry.gpu.InstalledGpu;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Builds a {@link ReportModel} from a perf run directory and the optional kernel and history files. All of
 * the report's file reading happens here and in the loaders it calls. A missing optional file becomes a
 * section that says what was looked for where; a file that is there but unreadable is an error naming it.
 */
public final class ReportLoader {

    private static final ObjectMapper JSON = new ObjectMapper()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /**
     * Where the report's inputs are.
     *
     * @param run         a run directory, or a directory of runs (its newest run)
     * @param kernels     a figures.json or kernels run directory the user named; it must exist
     * @param kernelsRoot searched for the newest kernels run when {@code kernels} is empty
     * @param history     the history directory ({@code <history>/<spec>.jsonl})
     */
    public record Sources(Path run, Optional<Path> kernels, Path kernelsRoot, Path history) {
        public Sources {
            Objects.requireNonNull(run, "run");
            Objects.requireNonNull(kernels, "kernels");
            Objects.requireNonNull(kernelsRoot, "kernelsRoot");
            Objects.requireNonNull(history, "history");
        }
    }

    private ReportLoader() {
    }

    public static ReportModel load(Sources sources, String generatedAt) throws IOException {
        Path run = BaselineFiles.resolveRun(sources.run());
        Path measurementsFile = run.resolve(MeasurementsFile.FILE);
        MeasurementsFile measurements = MeasurementsFile.read(measurementsFile);
        String spec = measurements.spec();
        Optional<RunEnvironment> environment = environment(run.resolve(RunEnvironment.FILE));
        Input<EnvironmentView> environmentView = environment
                .<Input<EnvironmentView>>map(e -> Input.found(facts(e, measurements)))
                .orElseGet(() -> Input.missing("no environment.json in " + run
                        + " (the perf suite writes it once the server has started)"));
        Input<KernelTables> kernels = sources.kernels().isPresent()
                ? KernelTablesLoader.required(sources.kernels().get())
                : KernelTablesLoader.newestUnder(sources.kernelsRoot());
        Input<TrendView> trends = environment.isEmpty()
                ? Input.missing("no environment.json in " + run + ", so no fingerprint to select history lines by")
                : TrendLoader.load(sources.history(), spec, environment.get().fingerprint());
        return new ReportModel(spec, run.toString(), generatedAt, environmentView,
                VerdictsLoader.load(run.resolve("verdicts.json"), spec), PointLoader.points(measurements,
                measurementsFile), kernels, trends);
    }

    private static Optional<RunEnvironment> environment(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        return Optional.of(RunEnvironment.read(file));
    }

    private static EnvironmentView facts(RunEnvironment e, MeasurementsFile measurements) {
        List<EnvironmentView.Fact> facts = new ArrayList<>();
        facts.add(new EnvironmentView.Fact("GPU model", String.join(", ", e.gpus().stream().map(InstalledGpu::name)
                .distinct().toList())));
        facts.add(new EnvironmentView.Fact("GPU count", Integer.toString(e.gpus().size())));
        facts.add(new EnvironmentView.Fact("GPU driver", String.join(", ", e.gpus().stream()
                .map(g -> g.driverVersion() == null ? "" : g.driverVersion()).distinct().toList())));
        facts.add(new EnvironmentView.Fact("GPUs", e.gpuSummary()));
        facts.add(new EnvironmentView.Fact("server (name, version, arguments)", e.server()));
        facts.add(new EnvironmentView.Fact("target kind", e.targetKind()));
        facts.add(new EnvironmentView.Fact("model", e.model()));
        facts.add(new EnvironmentView.Fact("servebench commit", e.commit()));
        facts.add(new EnvironmentView.Fact("spec", e.spec()));
        facts.add(new EnvironmentView.Fact("spec sha256", e.specSha256()));
        facts.add(new EnvironmentView.Fact("environment fingerprint", e.fingerprint()));
        facts.add(new EnvironmentView.Fact("repeats per point", measurements.repeats()
                + (measurements.repeatOrder() != null ? " (" + measurements.repeatOrder() + ")" : "")));
        facts.add(new EnvironmentView.Fact("machine speed probe", machineProbe(measurements)));
        facts.add(new EnvironmentView.Fact("CPU", e.cpuModel() + " (" + e.cpus() + " CPUs)"));
        facts.add(new EnvironmentView.Fact("Java", e.java()));
        facts.add(new EnvironmentView.Fact("OS", e.os()));
        return new EnvironmentView(facts);
    }

    /** Median and range of the probe's samples over every repeat: how fast the machine was during this run. */
    private static String machineProbe(MeasurementsFile measurements) {
        double[] samples = measurements.points().stream().flatMap(point -> point.repeats().stream())
                .map(repeat -> repeat.get(MachineSpeedProbe.SAMPLE_KEY)).filter(java.util.Objects::nonNull)
                .mapToDouble(Double::doubleValue).sorted().toArray();
        if (samples.length == 0) {
            return "not recorded";
        }
        return String.format(Locale.ROOT, "median %.1f ms over %d repeats (%.1f … %.1f ms); lower is faster",
                NumpyStats.median(samples), samples.length, samples[0], samples[samples.length - 1]);
    }

    static JsonNode readJson(Path file, String expected) throws IOException {
        try {
            return JSON.readTree(file.toFile());
        } catch (NoSuchFileException | java.io.FileNotFoundException e) {
            throw new NoSuchFileException(file.toString(), null, "not found; expected " + expected);
        } catch (JacksonException e) {
            throw new IllegalArgumentException(file + ": not JSON (" + e.getOriginalMessage() + "); expected "
                    + expected);
        }
    }
}
