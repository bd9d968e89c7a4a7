package dev.servebench.suite;

import dev.servebench.kernels.bench.KernelMode;
import dev.servebench.server.embedded.TokenDelay;
import java.net.URI;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;

/**
 * How the perf suite is pointed at a spec and a server: JUnit configuration parameters first (the test
 * kit uses them), then system properties ({@code -Dservebench.spec=… -Dservebench.target=…}).
 *
 * @param spec           the YAML spec ({@code servebench.spec}, default: the embedded default spec)
 * @param targetOverride {@code servebench.target}: embedded, url, process or container replaces the spec's kind
 * @param url            {@code servebench.url}: the server for {@code url}
 * @param image          {@code servebench.image}: replaces a container target's image (e.g. a new server release)
 * @param reports        where runs are written ({@code servebench.reports}, default {@code reports/perf})
 * @param apiKey         bearer key from {@code OPENAI_API_KEY}; never printed
 * @param tokenDelay     {@code servebench.embedded.token-delay}: slowdown injected into the embedded engine
 *                       (e.g. {@code 15%}), for checking the gate; not part of the run's fingerprint
 * @param kernelsSkipped {@code servebench.kernels.skip=true}: no kernel benchmarks; kernel lines are not judged
 * @param kernelResults  {@code servebench.kernels.results}: an existing kernel run (its directory or its
 *                       kernel-measurements.json) to judge the spec's kernel lines on, instead of running one
 * @param kernelsMode    {@code servebench.kernels.mode}: smoke (default) or full, when the suite runs the kernels
 * @param kernelsOutput  {@code servebench.kernels.output}: the directory of the kernel run the suite makes;
 *                       default {@code reports/kernels/<mode>-<UTC time>}
 * @param runDirectory   {@code servebench.run-directory}: the run's own directory; default
 *                       {@code <reports>/<spec name>-<local time>} ({@code servebench check} names it, to report on it)
 */
record SuiteSettings(Path spec, Optional<String> targetOverride, Optional<URI> url, Optional<String> image, Path reports,
        Optional<String> apiKey, TokenDelay tokenDelay, boolean kernelsSkipped, Optional<Path> kernelResults,
        KernelMode kernelsMode, Optional<Path> kernelsOutput, Optional<Path> runDirectory) {

    static final Path DEFAULT_SPEC = Path.of("fixtures", "specs", "embedded-default.yaml");

    static SuiteSettings from(Function<String, Optional<String>> configuration) {
        Function<String, Optional<String>> lookup = key -> configuration.apply(key)
                .or(() -> Optional.ofNullable(System.getProperty(key))).filter(v -> !v.isBlank());
        return new SuiteSettings(lookup.apply("servebench.spec").map(Path::of).orElse(DEFAULT_SPEC),
                lookup.apply("servebench.target"), lookup.apply("servebench.url").map(URI::create),
                lookup.apply("servebench.image"),
                lookup.apply("servebench.reports").map(Path::of).orElse(Path.of("reports", "perf")),
                Optional.ofNullable(System.getenv("OPENAI_API_KEY")).filter(k -> !k.isBlank()),
                lookup.apply("servebench.embedded.token-delay").map(TokenDelay::parse).orElse(TokenDelay.NONE),
                lookup.apply("servebench.kernels.skip").map(Boolean::parseBoolean).orElse(false),
                lookup.apply("servebench.kernels.results").map(Path::of),
                lookup.apply("servebench.kernels.mode").map(KernelMode::parse).orElse(KernelMode.SMOKE),
                lookup.apply("servebench.kernels.output").map(Path::of),
                lookup.apply("servebench.run-directory").map(Path::of));
    }

    @Override
    public String toString() {
        return "SuiteSettings[spec=" + spec + ", target=" + targetOverride.orElse("(spec)") + ", url="
                + url.map(URI::toString).orElse("-") + ", image=" + image.orElse("-") + ", reports=" + reports + ", apiKey="
                + (apiKey.isPresent() ? "(set)" : "(none)") + ", tokenDelay=" + tokenDelay + ", kernels="
                + (kernelsSkipped ? "skipped" : kernelResults.map(Path::toString)
                .orElse(kernelsMode.label() + " run" + kernelsOutput.map(p -> " into " + p).orElse(""))) + ", run="
                + runDirectory.map(Path::toString).orElse("(new under reports)") + "]";
    }
}
