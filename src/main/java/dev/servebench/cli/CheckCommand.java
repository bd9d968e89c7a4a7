package dev.servebench.cli;

import dev.servebench.kernels.bench.KernelMode;
import dev.servebench.kernels.bench.KernelRunSettings;
import dev.servebench.spec.SpecException;
import dev.servebench.suite.SpecCheck;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servebench check SPEC}: the perf suite of {@code ./mvnw verify -Pperf}, run from the jar
 * ({@link SpecCheck}). Exit 0 no test failed, 1 a test failed, 2 bad input (an invalid spec: every error).
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Run a performance spec end to end as its JUnit tests (the perf suite of ./mvnw verify -Pperf):"
                + " one test per load point measurement, validity condition, expectation and kernel line (judged on"
                + " the kernel benchmarks it runs first, or on --kernel-results).",
                "Writes the run directory (measurements, verdicts.json, report.html), JUnit XML in REPORTS/junit and"
                        + " Allure results in REPORTS/allure-results. Exit 0 no test failed, 1 a test failed,"
                        + " 2 bad input."})
public final class CheckCommand implements Callable<Integer> {

    /** Exit code when any test of the suite failed. */
    static final int TEST_FAILED = 1;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SPEC", description = "The YAML spec (docs/specs.md).")
    Path file;

    @Option(names = "--target", paramLabel = "KIND",
            description = "Replace the spec's target kind: embedded, url, process or container (the last three need"
                    + " their settings in the spec, url takes --url).")
    String target;

    @Option(names = "--url", paramLabel = "URL", description = "The server of a url target (implies --target url).")
    URI url;

    @Option(names = "--image", paramLabel = "IMAGE", description = "Replace a container target's image.")
    String image;

    @Option(names = "--reports", paramLabel = "DIR", defaultValue = "reports/perf",
            description = "Where the run directory, junit/ and allure-results/ go (default: ${DEFAULT-VALUE}).")
    Path reports;

    @Option(names = "--kernel-results", paramLabel = "DIR|FILE",
            description = "An existing kernel run (servebench kernels run, ./mvnw -B package -Pkernels:"
                    + " reports/kernels/<run>) to judge the spec's kernels: lines on, instead of running the kernel"
                    + " benchmarks.")
    Path kernelResults;

    @Option(names = "--kernels-mode", paramLabel = "MODE", defaultValue = "smoke",
            converter = KernelModeConverter.class,
            description = "Without --kernel-results, a spec with kernels: lines (or measured hardware figures) first"
                    + " runs the kernel benchmarks (JMH) as ./mvnw verify -Pperf does, in this mode: smoke"
                    + " (default) or full; into reports/kernels/<mode>-<UTC time>.")
    KernelMode kernelsMode;

    @Option(names = "--history", paramLabel = "DIR", defaultValue = "reports/history",
            description = "History the HTML report reads trends from; not appended to (default: ${DEFAULT-VALUE}).")
    Path history;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SpecCheck.Result result;
        try {
            result = SpecCheck.run(new SpecCheck.Options(file, Optional.ofNullable(target), Optional.ofNullable(url),
                    Optional.ofNullable(image), reports, Optional.ofNullable(kernelResults), kernelsMode,
                    KernelRunSettings.newRunDirectory(KernelRunSettings.DEFAULT_ROOT, kernelsMode), history), out);
        } catch (SpecException e) {
            err.println(e.getMessage());
            err.flush();
            return Main.BAD_INPUT;
        } catch (NoSuchFileException e) {
            err.println("servebench: " + e.getFile() + ": no such file");
            err.flush();
            return Main.BAD_INPUT;
        }
        return result.passed() ? 0 : TEST_FAILED;
    }
}
