package dev.servebench.cli;

import dev.servebench.spec.PerformanceSpec;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code servebench run}: the spec its flags describe (what is measured, and how) and what only the
 * command line has. The API key is held but never shown by toString.
 *
 * @param spec      the measurement: a spec without expectations
 * @param outputDir where summaries and records go; empty = {@code reports/runs/<time>}
 * @param tag       the summaries' {@code tag}; empty = none
 * @param progress  whether to draw the progress bar
 */
public record RunSettings(PerformanceSpec spec, Optional<String> apiKey, Optional<Path> outputDir,
                          Optional<String> tag, boolean progress) {

    public RunSettings {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(apiKey, "apiKey");
        Objects.requireNonNull(outputDir, "outputDir");
        Objects.requireNonNull(tag, "tag");
        if (!spec.expectations().isEmpty() || !spec.kernelExpectations().isEmpty()) {
            throw new IllegalArgumentException("servebench run measures; it judges no expectations (spec "
                    + spec.name() + " has some: use servebench check)");
        }
    }

    @Override
    public String toString() {
        return "RunSettings[spec=" + spec.name() + ", apiKey=" + (apiKey.isPresent() ? "(set)" : "(none)")
                + ", outputDir=" + outputDir + ", tag=" + tag + ", progress=" + progress + "]";
    }
}
