package dev.servebench.suite;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.servebench.kernels.bench.KernelMode;
import dev.servebench.report.html.HtmlReportRenderer;
import dev.servebench.report.html.ReportLoader;
import dev.servebench.report.html.ReportModel;
import dev.servebench.results.AtomicFiles;
import dev.servebench.spec.PerformanceSpec;
import dev.servebench.spec.SpecReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;
import org.junit.platform.reporting.legacy.xml.LegacyXmlReportGeneratingListener;

/**
 * Runs a spec's perf suite from the jar, through the JUnit Platform launcher: the same test class
 * ({@link SpecSuiteTests}) that failsafe runs under {@code ./mvnw verify -Pperf}, so the tests, their names
 * and their verdicts are the same. Writes what the Maven profile writes: legacy JUnit XML (as failsafe's
 * reports), the run directory with verdicts.json and measurements, Allure results (allure-junit5's
 * listener registers itself with the launcher) and the HTML report of the run.
 */
public final class SpecCheck {

    /** Where Allure results go unless {@code allure.results.directory} is already set. */
    static final String ALLURE_RESULTS = "allure-results";

    /**
     * What to run.
     *
     * @param spec          the YAML spec
     * @param target        replaces the spec's target kind (embedded, url, process, container)
     * @param url           the server of a {@code url} target (alone, it implies {@code url})
     * @param image         replaces a container target's image
     * @param reports       the run directory, {@code junit/} and {@code allure-results/} are written below it
     * @param kernelResults a kernel run (its directory or kernel-measurements.json) the spec's kernel lines
     *                      are judged on; without one the suite runs the kernel benchmarks itself, when the
     *                      spec has kernel lines or measured hardware figures
     * @param kernelsMode   the mode of that kernel run (smoke, as the perf profile's, or full)
     * @param kernelsOutput where that kernel run goes
     * @param history       history directory the HTML report reads trends from (read only)
     */
    public record Options(Path spec, Optional<String> target, Optional<URI> url, Optional<String> image,
            Path reports, Optional<Path> kernelResults, KernelMode kernelsMode, Path kernelsOutput, Path history) {
        public Options {
            Objects.requireNonNull(kernelsMode, "kernelsMode");
            Objects.requireNonNull(kernelsOutput, "kernelsOutput");
            Objects.requireNonNull(spec, "spec");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(image, "image");
            Objects.requireNonNull(reports, "reports");
            Objects.requireNonNull(kernelResults, "kernelResults");
            Objects.requireNonNull(history, "history");
            target.ifPresent(kind -> {
                if (!List.of("embedded", "url", "process", "container").contains(kind)) {
                    throw new IllegalArgumentException("--target " + kind
                            + ": unknown target kind; expected embedded, url, process or container");
                }
            });
        }
    }

    /**
     * What the run left: test counts as JUnit counts them, and where its files are.
     *
     * @param failedContainers containers that failed (e.g. the spec's test factory itself)
     * @param report           the HTML report, or why there is none
     */
    public record Result(long tests, long succeeded, long failed, long aborted, long failedContainers,
            Path runDirectory, Path junitXml, Path allureResults, Report report) {
        /** No test and no container failed (aborted tests, as failsafe's skipped ones, do not fail a run). */
        public boolean passed() {
            return failed == 0 && failedContainers == 0;
        }
    }

    /** The HTML report of the run: written, or not, with the reason. */
    public sealed interface Report {
        record Written(Path file) implements Report {
        }

        record NotWritten(String reason) implements Report {
        }
    }

    private SpecCheck() {
    }

    /**
     * Runs the suite and writes its files; prints the suite's console summary and a JUnit count line to
     * {@code out}.
     *
     * @throws dev.servebench.spec.SpecException the spec is invalid (before anything is started)
     * @throws IllegalArgumentException          the options do not fit the spec's target (e.g. {@code --target
     *                                           process} for a spec without a process target)
     */
    public static Result run(Options options, PrintWriter out) throws IOException {
        // Read first: an invalid spec stops here, with every error, before a server or a launcher starts.
        PerformanceSpec spec = SpecReader.read(options.spec());
        Path runDirectory = SpecSuite.runDirectory(options.reports(), spec.name());
        Map<String, String> configuration = configuration(options, runDirectory);
        // So is a target the options cannot make of the spec's (the suite would fail its one container on it).
        SuiteTargets.resolve(spec, SuiteSettings.from(key -> Optional.ofNullable(configuration.get(key))));
        Path junitXml = options.reports().resolve("junit");
        Files.createDirectories(junitXml);
        Path allureResults = Path.of(Optional.ofNullable(System.getProperty("allure.results.directory"))
                .orElseGet(() -> {
                    String directory = options.reports().resolve(ALLURE_RESULTS).toString();
                    System.setProperty("allure.results.directory", directory);
                    return directory;
                }));

        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(SpecSuiteTests.class))
                .configurationParameters(configuration)
                .build();
        SummaryGeneratingListener summary = new SummaryGeneratingListener();
        DisplayNamedJunitXml names = new DisplayNamedJunitXml();
        Launcher launcher = LauncherFactory.create();
        // The suite's own summary goes to System.out when its session closes; keep the two streams in order.
        out.flush();
        launcher.execute(request, summary, names, new LegacyXmlReportGeneratingListener(junitXml, out));
        System.out.flush();
        names.rename(junitXml);

        TestExecutionSummary counts = summary.getSummary();
        Report report = htmlReport(runDirectory, options);
        Result result = new Result(counts.getTestsFoundCount(), counts.getTestsSucceededCount(),
                counts.getTestsFailedCount(), counts.getTestsAbortedCount(), counts.getContainersFailedCount(),
                runDirectory, junitXml, allureResults, report);
        // Failsafe's count line, so a log reads the same whichever way the suite ran.
        out.println("Tests run: " + result.tests() + ", Failures: " + result.failed() + ", Skipped (aborted): "
                + result.aborted() + (result.failedContainers() > 0 ? ", Failed containers: "
                + result.failedContainers() : ""));
        counts.getFailures().stream().filter(f -> !f.getTestIdentifier().isTest()).forEach(f -> out.println(
                "  container failed: " + f.getTestIdentifier().getDisplayName() + ": " + f.getException()));
        out.println("run        " + runDirectory);
        out.println("junit xml  " + junitXml);
        out.println("allure     " + allureResults);
        switch (report) {
            case Report.Written written -> out.println("report     " + written.file());
            case Report.NotWritten notWritten -> out.println("report     not written: " + notWritten.reason());
        }
        out.flush();
        return result;
    }

    /** The suite's settings as configuration parameters ({@link SuiteSettings#from}). */
    static Map<String, String> configuration(Options options, Path runDirectory) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("servebench.spec", options.spec().toString());
        parameters.put("servebench.reports", options.reports().toString());
        parameters.put("servebench.run-directory", runDirectory.toString());
        options.target().ifPresent(kind -> parameters.put("servebench.target", kind));
        options.url().ifPresent(url -> parameters.put("servebench.url", url.toString()));
        options.image().ifPresent(image -> parameters.put("servebench.image", image));
        options.kernelResults().ifPresent(kernels -> parameters.put("servebench.kernels.results", kernels.toString()));
        parameters.put("servebench.kernels.mode", options.kernelsMode().label());
        parameters.put("servebench.kernels.output", options.kernelsOutput().toString());
        return parameters;
    }

    /**
     * As {@code servebench report --run RUN}: only when the run measured something (measurements.json). Its
     * kernel tables come from the suite's kernel run only: the newest one under reports/kernels (what
     * {@code report} shows) may be another build's, beside kernel verdicts that were not judged on it.
     */
    private static Report htmlReport(Path runDirectory, Options options) throws IOException {
        if (!Files.isRegularFile(runDirectory.resolve("measurements.json"))) {
            return new Report.NotWritten("no measurements.json in " + runDirectory + " (no load point was measured)");
        }
        // The kernel run the suite judged (the one named, else its own), when it left its tables: a run without
        // them was already reported by the kernel lines' verdicts, and must not cost the report of the rest.
        Optional<Path> kernels = options.kernelResults().or(() -> Optional.of(options.kernelsOutput()))
                .map(path -> Files.isDirectory(path) ? path : path.toAbsolutePath().getParent())
                .filter(directory -> Files.isRegularFile(directory.resolve("figures.json")));
        ReportModel model = ReportLoader.load(new ReportLoader.Sources(runDirectory, kernels,
                runDirectory.resolve("kernels"), options.history()), Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        Path file = runDirectory.resolve("report.html");
        AtomicFiles.write(file, HtmlReportRenderer.render(model));
        return new Report.Written(file);
    }
}
