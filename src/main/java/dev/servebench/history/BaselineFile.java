package dev.servebench.history;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.servebench.results.FileFormat;
import dev.servebench.results.FormatJson;
import dev.servebench.results.MeasurementsFile;
import dev.servebench.telemetry.RunEnvironment;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * A baseline file, {@code <root>/<spec>/<fingerprint>.json} (format {@code servebench-baseline/1}): the newest
 * environment.json of its runs and, oldest first, each run's directory and measurements.json as they were.
 * A file of the older one-run layout ({@code source_run} and {@code measurements} at the top) reads as one run.
 */
@JsonPropertyOrder({"format", "environment", "runs"})
public record BaselineFile(String format, RunEnvironment environment, List<Run> runs) {

    public BaselineFile {
        format = FileFormat.BASELINE.accept(format);
        Objects.requireNonNull(environment, "missing \"environment\"; expected a baseline that servebench baseline"
                + " update wrote");
        runs = List.copyOf(Objects.requireNonNull(runs, "runs"));
    }

    /** @param sourceRun the run directory it came from, absolute; "" when an older file did not say */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonPropertyOrder({"source_run", "measurements"})
    public record Run(String sourceRun, MeasurementsFile measurements) {
        public Run {
            sourceRun = sourceRun == null ? "" : sourceRun;
            Objects.requireNonNull(measurements, "missing \"measurements\" of a run");
        }
    }

    public void write(Path file) throws IOException {
        FormatJson.write(file, this);
    }

    public static BaselineFile read(Path file) throws IOException {
        JsonNode tree = FormatJson.readTree(file, FileFormat.BASELINE);
        if (tree.isObject() && !tree.has("runs") && tree.has("measurements")) {
            ObjectNode single = FormatJson.MAPPER.createObjectNode();
            single.set("source_run", tree.get("source_run"));
            single.set("measurements", tree.get("measurements"));
            ObjectNode upgraded = ((ObjectNode) tree).deepCopy();
            upgraded.remove(List.of("source_run", "measurements"));
            upgraded.putArray("runs").add(single);
            tree = upgraded;
        }
        BaselineFile baseline = FormatJson.convert(tree, FileFormat.BASELINE, BaselineFile.class, file.toString());
        // The stored fingerprint names the file; one that its fields no longer give is not this environment.
        RunEnvironment.fromTree(tree.get("environment"), file + ": environment");
        return baseline;
    }
}
