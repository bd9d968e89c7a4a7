package dev.servebench.telemetry;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.servebench.results.FileFormat;
import dev.servebench.results.FormatJson;
import dev.servebench.telemetry.gpu.InstalledGpu;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * Where and on what a perf run measured. Runs are only compared with a baseline of the same
 * {@link #fingerprint()}: the same spec file, target kind and model, the same GPUs (model, count, driver)
 * and the same CPU model and count. The servebench commit is recorded but not part of it: comparing
 * commits is what a baseline is for ({@code commit} is "" outside a git checkout).
 *
 * <p>The file {@value #FILE} (format {@code servebench-environment/1}); a baseline file embeds it. The
 * {@code fingerprint} is written for scripts and readers; it is derived, so a stored one that does not match
 * the fields is refused rather than trusted.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({"format", "spec", "spec_sha256", "target_kind", "server", "model", "gpus", "cpu_model", "cpus",
        "java", "os", "commit", "fingerprint"})
@JsonIgnoreProperties(value = "fingerprint", allowGetters = true)
public record RunEnvironment(String format, String spec, String specSha256, String targetKind, String server,
        String model, List<InstalledGpu> gpus, String cpuModel, int cpus, String java, String os, String commit) {

    public static final String FILE = "environment.json";

    /** As this servebench writes it. */
    public RunEnvironment(String spec, String specSha256, String targetKind, String server, String model,
            List<InstalledGpu> gpus, String cpuModel, int cpus, String java, String os, String commit) {
        this(FileFormat.ENVIRONMENT.id(), spec, specSha256, targetKind, server, model, gpus, cpuModel, cpus, java, os,
                commit);
    }

    public RunEnvironment {
        format = FileFormat.ENVIRONMENT.accept(format);
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(specSha256, "specSha256");
        Objects.requireNonNull(targetKind, "targetKind");
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(model, "model");
        gpus = List.copyOf(gpus);
        Objects.requireNonNull(cpuModel, "cpuModel");
        Objects.requireNonNull(java, "java");
        Objects.requireNonNull(os, "os");
        Objects.requireNonNull(commit, "commit");
    }

    /** First 16 hex digits of SHA-256 over the identity fields, in a fixed order. */
    @JsonProperty("fingerprint")
    public String fingerprint() {
        StringBuilder identity = new StringBuilder().append(specSha256).append('\n').append(targetKind).append('\n')
                .append(model).append('\n').append(cpuModel).append('\n').append(cpus).append('\n');
        for (InstalledGpu gpu : gpus) {
            identity.append(gpu.name()).append('|').append(gpu.driverVersion()).append('\n');
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every JVM", e);
        }
    }

    /** GPUs as {@code 8× NVIDIA RTX PRO 6000 (driver 575.57)}, or {@code no GPU}. */
    @JsonIgnore
    public String gpuSummary() {
        if (gpus.isEmpty()) {
            return "no GPU";
        }
        InstalledGpu first = gpus.getFirst();
        boolean uniform = gpus.stream().allMatch(g -> g.name().equals(first.name()));
        return uniform ? gpus.size() + "× " + first.name() + " (driver " + first.driverVersion() + ")"
                : gpus.stream().map(InstalledGpu::name).toList().toString();
    }

    public void write(Path directory) throws IOException {
        dev.servebench.results.AtomicFiles.write(directory.resolve(FILE), FormatJson.text(this) + "\n");
    }

    /** {@code environment.json}, its stored fingerprint checked against the one its fields give. */
    public static RunEnvironment read(Path file) throws IOException {
        return fromTree(FormatJson.readTree(file, FileFormat.ENVIRONMENT), file.toString());
    }

    /** From a parsed document (a file, or the environment a baseline embeds); {@code where} names it. */
    public static RunEnvironment fromTree(com.fasterxml.jackson.databind.JsonNode tree, String where) {
        RunEnvironment environment = FormatJson.convert(tree, FileFormat.ENVIRONMENT, RunEnvironment.class, where);
        com.fasterxml.jackson.databind.JsonNode stored = tree.get("fingerprint");
        if (stored != null && !stored.asText().equals(environment.fingerprint())) {
            throw new IllegalArgumentException(where + ": fingerprint " + stored.asText() + " does not match its"
                    + " fields (" + environment.fingerprint() + "); expected an environment.json as servebench wrote it");
        }
        return environment;
    }

    /** The CPU model as Linux names it, else the architecture. */
    public static String localCpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | SecurityException e) {
            // Not Linux, or not readable: the architecture is the best identity left.
        }
        return System.getProperty("os.arch");
    }
}
