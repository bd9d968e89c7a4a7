package dev.servebench.kernels.bench;

import dev.servebench.kernels.KernelLibrary;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One run of the kernel suite.
 *
 * @param mode    which plan ({@link KernelPlan}) and iteration settings
 * @param threads the {@code threads} parameter of the kernels that take one
 * @param output  the run directory (jmh.json, figures, kernel-measurements.json)
 * @param only    runs only the steps whose benchmark class this finds
 * @param params  replaces a JMH parameter's values in every step that has it
 * @param library the library to benchmark instead of this build's, checked to exist ({@link BenchLibrary})
 * @param remeasure how much re-measuring undecided kernel lines may spend ({@link KernelRemeasure})
 */
public record KernelRunSettings(KernelMode mode, int threads, Path output, Optional<Pattern> only,
        Map<String, List<String>> params, Optional<Path> library, RemeasureBudget remeasure) {

    /** Where kernel runs go unless told: what {@code servebench report} and the profiles read. */
    public static final Path DEFAULT_ROOT = Path.of("reports", "kernels");

    public KernelRunSettings {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(output, "output");
        Objects.requireNonNull(only, "only");
        Objects.requireNonNull(library, "library");
        Objects.requireNonNull(remeasure, "remeasure");
        if (threads < 1) {
            throw new IllegalArgumentException("threads " + threads + "; expected at least 1");
        }
        params.forEach((name, values) -> {
            if (name.isBlank() || values.isEmpty() || values.stream().anyMatch(String::isBlank)) {
                throw new IllegalArgumentException("parameter " + name + "=" + String.join(",", values)
                        + "; expected NAME=V1,V2");
            }
        });
        Map<String, List<String>> copy = new LinkedHashMap<>();
        params.forEach((name, values) -> copy.put(name, List.copyOf(values)));
        params = Collections.unmodifiableMap(copy);
    }

    /**
     * The perf suite's run, as the profiles run it: every CPU as threads, the whole plan, the library
     * {@code -Dservebench.kernels.lib} names (else this build's) and the re-measuring budget of
     * {@code -Dservebench.kernels.remeasure.rounds/seconds} (else {@link RemeasureBudget#DEFAULT}).
     */
    public static KernelRunSettings standard(KernelMode mode, Path output) {
        return new KernelRunSettings(mode, Runtime.getRuntime().availableProcessors(), output, Optional.empty(),
                Map.of(), libraryFromProperty(), RemeasureBudget.fromProperties());
    }

    /**
     * The library {@code -Dservebench.kernels.lib} names, checked to be a file, else empty (this build's).
     *
     * @throws IllegalArgumentException the property names no file
     */
    public static Optional<Path> libraryFromProperty() {
        return BenchLibrary.configured(System.getProperty(KernelLibrary.LIBRARY_PROPERTY));
    }

    /** {@code <root>/<mode>-<UTC time>}: a new run's directory. */
    public static Path newRunDirectory(Path root, KernelMode mode) {
        return root.resolve(mode.label() + "-"
                + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(Instant.now()));
    }
}
