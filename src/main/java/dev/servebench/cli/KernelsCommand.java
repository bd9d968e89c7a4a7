package dev.servebench.cli;

import dev.servebench.results.AtomicFiles;
import dev.servebench.kernels.results.JmhResults;
import dev.servebench.kernels.results.KernelFigures;
import dev.servebench.kernels.results.KernelReport;
import dev.servebench.kernels.bench.KernelBenchmarks;
import dev.servebench.kernels.bench.KernelMode;
import dev.servebench.kernels.bench.KernelRunSettings;
import dev.servebench.kernels.bench.RemeasureBudget;
import dev.servebench.spec.KernelExpectation;
import dev.servebench.spec.SpecException;
import dev.servebench.spec.SpecReader;
import dev.servebench.suite.SpecKernels;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code servebench kernels run}: the kernel suite (JMH, from the jar: the same runner {@code servebench check}
 * and the perf suite use); {@code servebench kernels figures JMH.json}: derives the kernel figures (GB/s,
 * GFLOP/s, algbw/busbw, ratios to the baselines, targets) from a JMH result file, e.g. one a GPU runner produced.
 */
@Command(name = "kernels", mixinStandardHelpOptions = true,
        subcommands = {KernelsCommand.Run.class, KernelsCommand.Figures.class, KernelCompareCommand.class},
        description = "Kernel benchmarks: run them (JMH), or derive the figures of a stored JMH result file.")
public final class KernelsCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    @Command(name = "run", mixinStandardHelpOptions = true,
            description = {"Run the kernel benchmarks (JMH; each step in forked JVMs on this jar's class path) and"
                    + " write jmh.json, figures.json, figures.md and kernel-measurements.json; print the tables,"
                    + " then the kernel lines of --spec judged on this run (a report: the perf suite's tests fail"
                    + " on them). -Dservebench.kernels.lib=PATH (JAVA_TOOL_OPTIONS under bin/servebench)"
                    + " benchmarks another library with the same C ABI.",
                    "Exit 0 every step ran, 1 a step failed to run, 2 bad input."})
    static final class Run implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Option(names = "--mode", paramLabel = "MODE", defaultValue = "smoke", converter = KernelModeConverter.class,
                description = "smoke (CI-sized, ≈ 2 min on 2 cores) or full (the whole matrix); default ${DEFAULT-VALUE}.")
        KernelMode mode;

        @Option(names = "--threads", paramLabel = "N", description = "The kernels' thread count (default: all CPUs).")
        Optional<Integer> threads;

        @Option(names = "--output", paramLabel = "DIR",
                description = "The run directory (default: reports/kernels/<mode>-<UTC time>).")
        Optional<Path> output;

        @Option(names = "--only", paramLabel = "REGEX", description = "Only the benchmark classes this finds.")
        Optional<Pattern> only;

        @Option(names = "--param", paramLabel = "NAME=V1,V2",
                description = "Replace a JMH parameter's values in every step that has it (repeatable).")
        Map<String, String> params = new LinkedHashMap<>();

        @Option(names = "--spec", paramLabel = "FILE", description = "Judge this spec's kernels: lines on the run.")
        Optional<Path> specFile;

        @Option(names = "--remeasure-rounds", paramLabel = "N", description = "Extra rounds of one fork per figure"
                + " for --spec lines whose interval straddles their limit (default: "
                + RemeasureBudget.DEFAULT_ROUNDS + "; 0: none).")
        Optional<Integer> remeasureRounds;

        @Option(names = "--remeasure-seconds", paramLabel = "S", description = "No re-measuring fork starts after"
                + " S seconds of re-measuring (default: " + RemeasureBudget.DEFAULT_SECONDS + ").")
        Optional<Integer> remeasureSeconds;

        @Override
        public Integer call() throws IOException {
            PrintWriter err = spec.commandLine().getErr();
            KernelRunSettings settings;
            List<KernelExpectation> expectations;
            try {
                // Read first: a bad spec stops the run before minutes of benchmarks, with all its errors.
                expectations = specFile.isPresent() ? SpecReader.read(specFile.get()).kernelExpectations() : List.of();
                Map<String, List<String>> replaced = new LinkedHashMap<>();
                params.forEach((name, values) -> replaced.put(name, List.of(values.split(",", -1))));
                settings = new KernelRunSettings(mode, threads.orElse(Runtime.getRuntime().availableProcessors()),
                        output.orElseGet(() -> KernelRunSettings.newRunDirectory(KernelRunSettings.DEFAULT_ROOT, mode)),
                        only, replaced, KernelRunSettings.libraryFromProperty(), new RemeasureBudget(
                                remeasureRounds.orElse(RemeasureBudget.DEFAULT_ROUNDS),
                                remeasureSeconds.orElse(RemeasureBudget.DEFAULT_SECONDS)));
            } catch (SpecException e) {
                err.println(e.getMessage());
                err.flush();
                return Main.BAD_INPUT;
            } catch (NoSuchFileException e) {
                err.println("servebench: " + e.getFile() + ": no such file");
                err.flush();
                return Main.BAD_INPUT;
            } catch (IllegalArgumentException e) {
                err.println("servebench kernels: " + e.getMessage());
                err.flush();
                return Main.BAD_INPUT;
            }
            KernelBenchmarks.KernelRun run;
            try {
                // JMH prints its progress to this stream: the console, not picocli's writer.
                run = SpecKernels.run(specFile, expectations, settings, System.out);
            } catch (IllegalStateException e) {
                // A missing or foreign library, found before any benchmark ran.
                err.println("servebench kernels: " + e.getMessage());
                err.flush();
                return Main.BAD_INPUT;
            }
            return run.complete() ? 0 : 1;
        }
    }

    @Command(name = "figures", mixinStandardHelpOptions = true,
            description = "Print the derived kernel figures of a JMH JSON result file as Markdown.")
    static final class Figures implements Callable<Integer> {

        @Spec
        CommandSpec spec;

        @Parameters(index = "0", paramLabel = "JMH_JSON", description = "JMH results (-rf json), e.g. jmh.json.")
        Path results;

        @Option(names = "--output", paramLabel = "DIR",
                description = "Also write figures.json and figures.md into DIR.")
        Optional<Path> output;

        @Override
        public Integer call() throws IOException {
            KernelReport report;
            try {
                report = KernelFigures.derive(JmhResults.read(results));
            } catch (NoSuchFileException e) {
                spec.commandLine().getErr().println("servebench: no such file: " + results);
                return 2;
            } catch (IllegalArgumentException | com.fasterxml.jackson.core.JacksonException e) {
                spec.commandLine().getErr().println("servebench: " + results + ": " + e.getMessage());
                return 2;
            }
            String markdown = report.toMarkdown();
            spec.commandLine().getOut().print(markdown);
            spec.commandLine().getOut().flush();
            if (output.isPresent()) {
                Files.createDirectories(output.get());
                AtomicFiles.write(output.get().resolve("figures.md"), markdown);
                report.write(output.get());
            }
            return 0;
        }
    }
}
